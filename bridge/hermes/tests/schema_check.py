"""The subset of JSON Schema the engine protocol's schema uses, interpreted here so the bridge's
own tests validate every message against the same file the host's tests use."""

import json
import os

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "..", "harness", "engine-protocol", "protocol.schema.json")


class SchemaError(AssertionError):
    pass


class Validator:
    def __init__(self, path=SCHEMA_PATH):
        with open(path, encoding="utf-8") as handle:
            self.root = json.load(handle)

    def check(self, definition, value):
        """Raise SchemaError unless `value` conforms to `#/$defs/<definition>`."""
        problem = self._check(self.root["$defs"][definition], value, "$")
        if problem:
            raise SchemaError(f"{definition}: {problem}")

    def _resolve(self, ref):
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def _check(self, schema, value, path):
        if "$ref" in schema:
            problem = self._check(self._resolve(schema["$ref"]), value, path)
            if problem:
                return problem
        if "type" in schema and not _matches(schema["type"], value):
            return f"{path}: expected {schema['type']}, got {type(value).__name__}"
        if "const" in schema and value != schema["const"]:
            return f"{path}: expected {schema['const']!r}"
        if "enum" in schema and value not in schema["enum"]:
            return f"{path}: {value!r} not in {schema['enum']}"
        if "oneOf" in schema:
            passing = [b for b in schema["oneOf"] if self._check(b, value, path) is None]
            if len(passing) != 1:
                return f"{path}: matches {len(passing)} of the alternatives"
        if isinstance(value, str) and "minLength" in schema and len(value) < schema["minLength"]:
            return f"{path}: too short"
        if isinstance(value, (int, float)) and not isinstance(value, bool) and "minimum" in schema and value < schema["minimum"]:
            return f"{path}: below {schema['minimum']}"
        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                return f"{path}: too few items"
            if "items" in schema:
                for index, item in enumerate(value):
                    problem = self._check(schema["items"], item, f"{path}[{index}]")
                    if problem:
                        return problem
        if isinstance(value, dict):
            for key in schema.get("required", []):
                if key not in value:
                    return f"{path}: missing {key}"
            properties = schema.get("properties", {})
            extra = schema.get("additionalProperties")
            for key, item in value.items():
                if key in properties:
                    problem = self._check(properties[key], item, f"{path}.{key}")
                elif extra is False:
                    problem = f"{path}: unknown property {key}"
                elif isinstance(extra, dict):
                    problem = self._check(extra, item, f"{path}.{key}")
                else:
                    problem = None
                if problem:
                    return problem
        return None


def _matches(kind, value):
    kinds = kind if isinstance(kind, list) else [kind]
    for each in kinds:
        if each == "null" and value is None:
            return True
        if each == "string" and isinstance(value, str):
            return True
        if each == "boolean" and isinstance(value, bool):
            return True
        if each == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return True
        if each == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
        if each == "array" and isinstance(value, list):
            return True
        if each == "object" and isinstance(value, dict):
            return True
    return False
