/** An HTTP header name: an RFC 9110 token. Shared by the contract's schemas and the forms that check as you type. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
