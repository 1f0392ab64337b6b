// Character codes of JSON's structural characters (RFC 8259 section 2), for the scanners that read JSON text
// without parsing it (the HAR entry splitter, the duplicate-key test).
export const QUOTE = 34;
export const BACKSLASH = 92;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;
export const COLON = 58;
export const COMMA = 44;
