declare const settings: Record<string, string>;
export = settings;
