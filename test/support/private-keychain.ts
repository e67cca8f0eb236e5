/**
 * The real keychain tests run against: a private Secret Service started by `scripts/with-keyring.sh`. A test
 * file calls {@link requirePrivateKeychain} at its top level: it adds a test that fails when there is no such
 * keychain (unless `BOSUN_ALLOW_NO_KEYCHAIN=1` says to skip explicitly), and returns whether the keychain is
 * there, for `describe.skipIf(!available)`.
 */
import { expect, it } from 'vitest'
import { createKeytarSecretStore } from '../../main/secrets/secret-store'

export async function requirePrivateKeychain(): Promise<boolean> {
  const inPrivateKeyring = process.env.BOSUN_KEYRING_READY === '1'
  const status = inPrivateKeyring ? await createKeytarSecretStore().status() : { available: false, message: 'not inside scripts/with-keyring.sh' }
  const allowMissing = process.env.BOSUN_ALLOW_NO_KEYCHAIN === '1'
  it('has a private Secret Service to test against', () => {
    if (!status.available && !allowMissing) {
      throw new Error(
        `No private keychain: ${'message' in status ? status.message : ''}\nRun under scripts/with-keyring.sh, or set BOSUN_ALLOW_NO_KEYCHAIN=1 to skip explicitly.`,
      )
    }
    expect(status.available || allowMissing).toBe(true)
  })
  return status.available
}
