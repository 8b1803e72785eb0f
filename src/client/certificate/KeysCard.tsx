/** The published signing keys on /verify-cert: id, validity period and PEM of every key ever used. */
import { Alert, Card, List, Space, Tag, Typography } from "antd";
import { KEYS_URL, WELL_KNOWN_KEYS_URL, useCertificateKeys } from "./api";
import { validity } from "./verify-local";

export function KeysCard({ narrow = false }: { narrow?: boolean }) {
  const keys = useCertificateKeys();
  return (
    <Card title="签名公钥" size="small" data-testid="cert-keys" styles={narrow ? { body: { padding: 12 } } : {}}>
      <Typography.Paragraph type="secondary">
        证书的验证码是平台用 Ed25519
        私钥对证书编号、版本、持证人姓名、奖项、作品名称、竞赛名称和日期所作的签名。平台历来使用的公钥全部在此公布（更换密钥后旧公钥仍保留），旧证书始终可以核验。机器可读的列表：
        <Typography.Link href={WELL_KNOWN_KEYS_URL} target="_blank" rel="noopener">
          {WELL_KNOWN_KEYS_URL}
        </Typography.Link>
        ，或接口{" "}
        <Typography.Link href={KEYS_URL} target="_blank" rel="noopener">
          {KEYS_URL}
        </Typography.Link>
        。
      </Typography.Paragraph>
      {keys.isError && <Alert type="warning" showIcon message={keys.error.message} />}
      <List
        loading={keys.isLoading}
        dataSource={[...(keys.data ?? [])].reverse()}
        locale={{ emptyText: "平台尚未签发过证书，还没有公钥" }}
        renderItem={(k) => (
          <List.Item key={k.id} data-testid={`cert-key-${k.id}`} style={{ display: "block" }}>
            <Space wrap size={[8, 4]}>
              <Typography.Text code copyable>
                {k.id}
              </Typography.Text>
              {k.validTo ? <Tag>已停用</Tag> : <Tag color="green">当前使用</Tag>}
              <Typography.Text type="secondary">有效期 {validity(k)}</Typography.Text>
            </Space>
            <Typography.Paragraph copyable={{ text: k.publicKey }} style={{ margin: "8px 0 0" }}>
              <pre style={{ margin: 0, fontSize: 12, whiteSpace: "pre-wrap", wordBreak: "break-all" }}>{k.publicKey.trim()}</pre>
            </Typography.Paragraph>
          </List.Item>
        )}
      />
    </Card>
  );
}
