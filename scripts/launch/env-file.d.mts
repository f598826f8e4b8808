export const ENV_FILE_VARIABLE: "HOPEWELL_ENV_FILE";
/** Loads the settings file (`.env`, HOPEWELL_ENV_FILE's, or none) and returns its name, if one was read. */
export function loadSettingsFile(): string | undefined;
