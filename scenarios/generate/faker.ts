import { base, en, Faker } from "@faker-js/faker";

/** Reference date of every generated scenario, so faker's dates never follow the clock. */
export const SCENARIO_REF_DATE = "2026-01-15T09:00:00.000Z";

/**
 * A private faker, seeded and with its reference date fixed. `base` supplies the
 * locale-independent data (file extensions, mime types) that `en` does not carry.
 */
export function seededFaker(seed: number, refDate: string = SCENARIO_REF_DATE): Faker {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(seed);
  faker.setDefaultRefDate(refDate);
  return faker;
}
