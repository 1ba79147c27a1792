import t from 'tap';
import { maskAuditValue } from '../../../core/audit/mask-audit-value.js';
import { operatorSecrets } from '../../../core/security/secret-values.js';

const longKey = 'AbCd0123456789abcdefghijklmnopqrstuvWXYZ';

t.test('a channel as the audit trail keeps it: its keys and credential options masked, everything else as it was', async (t) => {
  const channel = {
    name: 'gx-main',
    base_url: 'https://gx.example.com/v1',
    api_key: longKey,
    api_keys: [longKey, 'short-key-1'],
    models: ['gx-3', 'gx-2.5-pro'],
    priority: 2,
    enabled: true,
    options: { region: 'eu', secret_access_key: 'aws-secret-value', headers: { Authorization: 'Bearer abcdefgh12345678', 'X-Trace': 'on' } },
  };
  t.same(maskAuditValue(channel), {
    name: 'gx-main',
    base_url: 'https://gx.example.com/v1',
    api_key: 'AbCd**********WXYZ',
    api_keys: ['AbCd**********WXYZ', '**********'],
    models: ['gx-3', 'gx-2.5-pro'],
    priority: 2,
    enabled: true,
    options: { region: 'eu', secret_access_key: '**********', headers: { Authorization: '**********', 'X-Trace': 'on' } },
  });
});

t.test("a config's client secret, passwords, login tokens and encryption key are masked; numbers under such names stay", async (t) => {
  const config = {
    auth: { oidc: { issuer: 'https://id.example.com', client_id: 'gateway', client_secret: 'oidc-client-secret-value', redirect_url: 'https://gw.example.com/cb' } },
    users: [{ id: 1, username: 'root', login_token: 'mgu_abcdefghijklmnop', role: 'admin' }],
    security: { encryption_key: 'k'.repeat(40), max_tokens_per_user: 100 },
    storage: { driver: 'postgres', url: 'postgres://gateway:hunter2-password@db.example.com:5432/gw' },
    rate_limits: { tokens: { requests_per_minute: 60 } },
  };
  const masked = maskAuditValue(config) as typeof config;
  t.equal(masked.auth.oidc.client_secret, '**********');
  t.equal(masked.auth.oidc.client_id, 'gateway');
  t.equal(masked.users[0]?.login_token, '**********');
  t.equal(masked.users[0]?.username, 'root');
  t.equal(masked.security.encryption_key, 'kkkk**********kkkk');
  t.equal(masked.security.max_tokens_per_user, 100);
  t.equal(masked.storage.url, 'postgres://gateway:**********@db.example.com:5432/gw', 'a URL loses its password');
  t.same(masked.rate_limits, { tokens: { requests_per_minute: 60 } });
});

t.test('a key already masked stays as it is, and nulls, empty strings and missing fields are kept as JSON has them', async (t) => {
  t.same(maskAuditValue({ key: 'AbCd**********WXYZ', budget_daily: null, api_key: '', gone: undefined }), { key: 'AbCd**********WXYZ', budget_daily: null, api_key: '' });
  t.equal(maskAuditValue(undefined), null);
  t.equal(maskAuditValue(null), null);
});

t.test("a key-shaped string or an operator's secret is hidden wherever it stands", async (t) => {
  operatorSecrets.add(['operator-secret-for-the-audit-test']);
  t.same(maskAuditValue({ name: 'uses sk-abcdefghijklmnop1234 in a note', note: 'see operator-secret-for-the-audit-test' }), { name: 'uses [redacted] in a note', note: 'see [redacted]' });
});
