/**
 * 离线核验 on /verify-cert: paste the code (or the QR code's address) and type the printed facts;
 * the signature is checked in this browser with the published keys only — nothing about the
 * certificate is sent anywhere — so a paper can be checked against a copy of the page or with
 * keys obtained elsewhere (pasted JSON or PEM).
 */
import { useState } from "react";
import { Alert, Button, Col, Collapse, Form, Input, InputNumber, Row, Space, Typography } from "antd";
import { SafetyCertificateOutlined } from "@ant-design/icons";
import type { CertificateKey } from "../../shared/certificate/schema";
import { useCertificateKeys } from "./api";
import { parseCodeInput, parsePrintedDate, parsePrintedNumber, parsePrintedTitle } from "./printed";
import { CheckAlert } from "./SignatureCheck";
import { parsePastedKeys, verifyLocally, type LocalCheck } from "./verify-local";

interface Values {
  code: string;
  number: string;
  version: number;
  holderName: string;
  awardName: string;
  workTitle?: string;
  contestName: string;
  contestDate: string;
  pastedKeys?: string;
}

const required = (message: string) => [{ required: true, whitespace: true, message }];

export function OfflinePanel() {
  const [form] = Form.useForm<Values>();
  const keys = useCertificateKeys();
  const [outcome, setOutcome] = useState<{ check: LocalCheck; own: boolean } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onCodeChange = (e: React.ChangeEvent<HTMLTextAreaElement>) => {
    const { code, number } = parseCodeInput(e.target.value);
    if (number || code !== e.target.value) {
      form.setFieldsValue({ code, ...(number && !form.getFieldValue("number") ? { number } : {}) });
    }
  };
  const onNumberBlur = () => {
    const { number, version } = parsePrintedNumber(form.getFieldValue("number") ?? "");
    form.setFieldsValue({ number, ...(version ? { version } : {}) });
  };

  const submit = async (v: Values) => {
    setFailure(null);
    setOutcome(null);
    let list: readonly CertificateKey[] | undefined = keys.data;
    const own = !!v.pastedKeys?.trim();
    setBusy(true);
    try {
      if (own) list = await parsePastedKeys(v.pastedKeys!);
      if (!list) {
        setFailure(keys.error ? `${keys.error.message}：可在下方「使用其他公钥」中粘贴公钥后核验` : "正在获取公钥，请稍后再试");
        return;
      }
      const { number, version } = parsePrintedNumber(v.number);
      const facts = {
        number,
        version: version ?? v.version,
        holderName: v.holderName,
        awardName: v.awardName,
        workTitle: parsePrintedTitle(v.workTitle),
        contestName: v.contestName,
        contestDate: parsePrintedDate(v.contestDate)!,
      };
      setOutcome({ check: await verifyLocally(facts, parseCodeInput(v.code).code, list), own });
    } catch (e) {
      setFailure((e as Error).message || "核验失败");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        按证书上印的内容逐项填写，并粘贴验证码（或二维码中的网址）。核验只在本机用平台公布的公钥进行，不查询证书记录，因此也可用本页的副本核验；它证明这些内容确由平台签发，但不能说明证书此后是否被撤销或替换——当前状态请用「在线查询」。
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={{ version: 1 }}
        requiredMark={false}
        data-testid="offline-form"
        style={{ maxWidth: 760 }}
      >
        <Form.Item
          name="code"
          label="验证码"
          rules={[...required("请粘贴验证码"), { max: 2000, message: "验证码过长" }]}
          extra="形如 1a2b3c4d5e6f.xxxx…（12 位密钥编号、一个点、86 个字符的签名），也可以粘贴扫描二维码得到的网址"
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            onChange={onCodeChange}
            spellCheck={false}
            style={{ fontFamily: "monospace" }}
            data-testid="offline-code"
          />
        </Form.Item>
        <PrintedFacts onNumberBlur={onNumberBlur} />
        <Collapse
          size="small"
          style={{ marginBottom: 16 }}
          items={[
            {
              key: "keys",
              label: "使用其他公钥（可选）",
              children: (
                <Form.Item
                  name="pastedKeys"
                  extra="默认使用本页公布的公钥。也可粘贴另行保存的公钥列表（certificate-keys.json 的内容）或 PEM 公钥，只用它们核验。"
                  style={{ marginBottom: 0 }}
                >
                  <Input.TextArea
                    autoSize={{ minRows: 3, maxRows: 8 }}
                    spellCheck={false}
                    style={{ fontFamily: "monospace", fontSize: 12 }}
                    data-testid="offline-keys"
                  />
                </Form.Item>
              ),
            },
          ]}
        />
        <Button
          type="primary"
          htmlType="submit"
          icon={<SafetyCertificateOutlined />}
          loading={busy}
          block
          data-testid="offline-submit"
        >
          在本机核验签名
        </Button>
      </Form>
      {failure && <Alert type="error" showIcon message={failure} />}
      {outcome && (
        <Space direction="vertical" style={{ width: "100%" }} data-testid="offline-result">
          <CheckAlert check={outcome.check} testId="offline-check" />
          {outcome.check.result === "valid" && (
            <Typography.Text type="secondary">
              {outcome.own ? "使用的是您粘贴的公钥。" : "使用的是本页公布的公钥。"}
              这只证明上述内容由平台签发；证书当前是否有效请用「在线查询」。
            </Typography.Text>
          )}
        </Space>
      )}
    </Space>
  );
}

/** The facts printed on the certificate, field by field: number, version, holder, award, work, contest, date. */
function PrintedFacts({ onNumberBlur }: { onNumberBlur: () => void }) {
  return (
    <Row gutter={12}>
      <Col xs={24} sm={16}>
        <Form.Item name="number" label="证书编号" rules={required("请填写证书编号")}>
          <Input placeholder="如 2026-ZJ-1-000123" onBlur={onNumberBlur} autoComplete="off" data-testid="offline-number" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item
          name="version"
          label="版本"
          rules={[{ required: true, message: "请填写版本" }]}
          extra="编号后印有「第 N 版」时填 N"
        >
          <InputNumber min={1} max={999} precision={0} style={{ width: "100%" }} data-testid="offline-version" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="holderName" label="持证人姓名" rules={required("请填写持证人姓名")}>
          <Input autoComplete="off" data-testid="offline-name" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name="awardName" label="奖项" rules={required("请填写奖项")}>
          <Input placeholder="如 一等奖" autoComplete="off" data-testid="offline-award" />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name="workTitle" label="作品名称" extra="证书上没有作品名称时（如优秀指导教师、优秀组织奖证书）留空">
          <Input autoComplete="off" data-testid="offline-work" />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name="contestName" label="竞赛名称" rules={required("请填写竞赛名称")}>
          <Input autoComplete="off" data-testid="offline-contest" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item
          name="contestDate"
          label="日期"
          rules={[
            ...required("请填写证书上的日期"),
            {
              validator: (_, v: string) =>
                !v?.trim() || parsePrintedDate(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error("请按证书上的日期填写，如 2026 年 7 月 20 日或 2026-07-20")),
            },
          ]}
        >
          <Input placeholder="如 2026 年 7 月 20 日" autoComplete="off" data-testid="offline-date" />
        </Form.Item>
      </Col>
    </Row>
  );
}
