import { createHash } from 'node:crypto'

/** SHA-256 of a string's UTF-8 as hex: Node's, the digest `common/sha256.ts` computes in plain code (a lone surrogate as U+FFFD in both), faster. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')
