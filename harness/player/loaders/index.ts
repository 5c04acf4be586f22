import { pythonLoader } from "./python.ts";
import { registerEngineLoader } from "./registry.ts";
import { typescriptLoader } from "./typescript.ts";

// The loaders a player knows, by plugin language (see registry.ts). One line per language.
registerEngineLoader("typescript", typescriptLoader);
registerEngineLoader("python", pythonLoader);

export { engineLoaderFor, registerEngineLoader, registeredLanguages, EngineLoadFailure, type EngineLoader, type LoadedCandidate, type LoaderContext } from "./registry.ts";
