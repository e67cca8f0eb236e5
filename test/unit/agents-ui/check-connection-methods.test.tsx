/** Check connection's list of auth methods: a method Bosun cannot run says so, instead of "The agent signs you in". */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AuthMethodList } from '../../../renderer/components/agents/CheckConnection'

describe('AuthMethodList', () => {
  it('says a method of a kind Bosun cannot run is not usable here, and names the others by how they sign in', () => {
    const html = renderToStaticMarkup(
      <AuthMethodList
        methods={[
          { id: 'sso', name: 'Company SSO', type: 'oauth-device', unsupported: true },
          { id: 'login', name: 'Log in with the agent', type: 'agent' },
        ]}
      />,
    )
    expect(html).toMatch(/Company SSO<\/span> <span class="muted small">— Not usable in Bosun/)
    expect(html).toMatch(/Log in with the agent<\/span> <span class="muted small">— The agent signs you in/)
  })

  it("tells claude-agent-acp's two \"Custom model gateway\" methods apart by the API of their gateway", () => {
    const html = renderToStaticMarkup(
      <AuthMethodList
        methods={[
          { id: 'gateway', name: 'Custom model gateway', type: 'agent', gateway: true, gatewayProtocol: 'anthropic' },
          { id: 'gateway-bedrock', name: 'Custom model gateway', type: 'agent', gateway: true, gatewayProtocol: 'bedrock' },
        ]}
      />,
    )
    expect(html).toMatch(/Custom model gateway<\/span> <span class="muted small">— Through your gateway, Anthropic API/)
    expect(html).toMatch(/Custom model gateway<\/span> <span class="muted small">— Through your gateway, Bedrock API/)
    expect(html).not.toContain('The agent signs you in')
  })

  it('shows the hidden and direction-changing characters of a method the agent names and describes as markers (hostile14)', () => {
    // Before: "Sign in with \u202Eyekrow" read "Sign in with workey", and the description's override turned its text round.
    const html = renderToStaticMarkup(
      <AuthMethodList methods={[{ id: 'spoof', name: 'Sign in with \u202Eyekrow', type: 'agent', description: 'Bosun \u200bverified. Paste `your\u202e key` here.\nNext line.' }]} />,
    )
    expect(html).not.toMatch(/[\u202e\u200b]/)
    expect(html).toContain('Sign in with ⟨U+202E⟩yekrow</span>')
    expect(html).toContain('Bosun ⟨U+200B⟩verified. Paste <code class="code-span">your⟨U+202E⟩ key</code> here.\nNext line.')
  })
})
