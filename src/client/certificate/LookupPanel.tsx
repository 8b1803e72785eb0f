/**
 * 在线查询 on /verify-cert: 证书编号 + 持证人姓名, or the number and code of the printed QR code
 * (…/verify-cert?number=…&code=…, looked up at once on arrival, no name needed).
 */
import { useEffect, useState } from "react";
import { Alert, Button, Form, Input, Space, Tag, Typography } from "antd";
import { QrcodeOutlined, SearchOutlined } from "@ant-design/icons";
import type { CertificateCheck } from "../../shared/certificate/schema";
import { useCertificateKeys, verifyCertificate } from "./api";
import { ResultCard } from "./ResultCard";
import { useSearch } from "../routing/use-search";

interface Values {
  number: string;
  name?: string;
}

export function LookupPanel() {
  const [params, setParams] = useSearch();
  const [form] = Form.useForm<Values>();
  const keys = useCertificateKeys();
  const qrNumber = params.get("number")?.trim() ?? "";
  const qrCode = params.get("code")?.trim() ?? "";
  /** the code from the QR address, kept while the number is unchanged */
  const [code, setCode] = useState(qrCode);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ check: CertificateCheck; code?: string; byCode: boolean } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (q: { number: string; name?: string; code?: string }) => {
    setBusy(true);
    setFailure(null);
    const out = await verifyCertificate(q);
    setBusy(false);
    if (out.ok) setAnswer({ check: out.check, code: q.code, byCode: !q.name });
    else {
      setAnswer(null);
      setFailure(out.message);
    }
  };

  // Arriving from the QR code (or moving to another QR address): look it up at once.
  useEffect(() => {
    setCode(qrCode);
    if (qrNumber && (qrCode || !form.getFieldValue("number"))) form.setFieldsValue({ number: qrNumber });
    if (qrNumber && qrCode) void run({ number: qrNumber, code: qrCode });
    // on the address's number and code only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [qrNumber, qrCode]);

  const submit = (v: Values) => {
    const number = v.number.trim();
    const name = v.name?.trim() || undefined;
    const withCode = code && number === qrNumber ? code : undefined;
    void run({ number, name, code: withCode });
  };

  const dropCode = () => {
    const next = new URLSearchParams(params);
    next.delete("code");
    setParams(next);
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        输入证书上印的证书编号和持证人姓名查询证书是否有效；用手机扫描证书上的二维码会直接打开本页并查询。
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        style={{ maxWidth: 520 }}
        requiredMark={false}
        data-testid="verify-form"
      >
        <Form.Item
          name="number"
          label="证书编号"
          rules={[
            { required: true, whitespace: true, message: "请输入证书编号" },
            { max: 40, message: "证书编号最多 40 个字符" },
          ]}
        >
          <Input placeholder="如 2026-ZJ-1-000123" autoComplete="off" inputMode="text" allowClear data-testid="verify-number" />
        </Form.Item>
        {code && (
          <Form.Item label="验证码">
            <Space wrap>
              <Tag icon={<QrcodeOutlined />} color="blue" data-testid="verify-qr-code">
                已从证书二维码读取验证码
              </Tag>
              <Button size="small" type="link" onClick={dropCode}>
                不使用验证码
              </Button>
            </Space>
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={code ? "持证人姓名（可不填）" : "持证人姓名"}
          rules={[
            { required: !code, whitespace: true, message: "请输入持证人姓名" },
            { max: 50, message: "姓名最多 50 个字符" },
          ]}
        >
          <Input placeholder="与证书上印的姓名一致" autoComplete="off" allowClear data-testid="verify-name" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={busy} block data-testid="verify-submit">
          查询
        </Button>
      </Form>
      {failure && <Alert type="error" showIcon message={<span data-testid="verify-failure">{failure}</span>} />}
      {busy && !answer && <Alert type="info" showIcon message="正在查询…" />}
      {answer && (
        <ResultCard
          check={answer.check}
          code={answer.code}
          byCode={answer.byCode}
          keys={keys.data}
          keysError={keys.error?.message}
        />
      )}
    </Space>
  );
}
