/** The text of src/array/method-docs.ts for the current methods.ts and function docs. */
export function methodDocs(): string;
