/**
 * The answer of a lookup on /verify-cert: the status in its colour (有效 green, 已撤销 red with
 * the date and reason, 已被新版本替换 with the latest version, 未找到该证书), the
 * certificate's facts, and the in-browser check of its code. A valid number whose typed or
 * scanned code does not sign it is not shown green: 证书编号有效，但验证码不符.
 */
import { Alert, Descriptions, Grid, Space, Typography } from "antd";
import type { CertificateCheck, CertificateKey } from "../../shared/certificate/schema";
import { chineseDate } from "../../shared/certificate/layout";
import { fmtTime } from "../format";
import { SignatureCheck } from "./SignatureCheck";

const CODE_MISMATCH = "证书编号有效，但验证码不符";
const CODE_MISMATCH_DETAIL =
  "该编号的证书存在且当前有效，但输入或扫描的验证码不是它的验证码：手中的证书可能被改动或为伪造，也可能是验证码抄错。请以下方平台记录的证书信息为准。";

const TYPE = { valid: "success", revoked: "error", replaced: "warning", not_found: "info" } as const;

function statusDetail(c: CertificateCheck, byCode: boolean): string | null {
  const f = c.certificate;
  if (c.status === "valid") return "该证书由平台签发，当前有效。";
  if (c.status === "revoked")
    return `该证书已于 ${fmtTime(c.statusAt)} 撤销，原因：${c.reasonText ?? c.reason ?? "未注明"}。撤销的证书不再证明获奖。`;
  if (c.status === "replaced" && f)
    return `该证书（第 ${f.version} 版）已于 ${fmtTime(c.statusAt)} 重新签发为第 ${c.latestVersion} 版，请以第 ${c.latestVersion} 版为准（同一编号）。`;
  return byCode
    ? "请核对证书编号和二维码：编号不存在，或验证码不是该编号证书的验证码（可能被改动）。也可以输入持证人姓名查询。"
    : "请核对证书编号和持证人姓名（与证书上印的一致）。编号不存在和姓名不符的回答相同。";
}

export function ResultCard({
  check,
  code,
  byCode,
  keys,
  keysError,
}: {
  check: CertificateCheck;
  code?: string;
  byCode: boolean;
  keys?: readonly CertificateKey[];
  keysError?: string;
}) {
  const f = check.certificate;
  // The number and name found a valid certificate, but the code given with them does not sign it.
  const codeMismatch = check.status === "valid" && check.signature === "invalid";
  // On a phone the labels go above the values (a side-by-side label column would be a few characters wide).
  const wide = Grid.useBreakpoint().sm ?? true;
  return (
    <Space direction="vertical" size={12} style={{ width: "100%" }} data-testid="cert-result" data-status={check.status}>
      <Alert
        type={codeMismatch ? "error" : TYPE[check.status]}
        showIcon
        message={
          <Typography.Text strong style={{ fontSize: 20 }} data-testid="cert-status">
            {codeMismatch ? CODE_MISMATCH : check.statusText}
          </Typography.Text>
        }
        description={
          <span data-testid="cert-status-detail">{codeMismatch ? CODE_MISMATCH_DETAIL : statusDetail(check, byCode)}</span>
        }
      />
      {f && (
        <Descriptions
          bordered={wide}
          size="small"
          layout={wide ? "horizontal" : "vertical"}
          column={{ xs: 1, sm: 1, md: 2 }}
          data-testid="cert-facts"
          items={[
            { key: "number", label: "证书编号", children: f.version > 1 ? `${f.number}（第 ${f.version} 版）` : f.number },
            { key: "holder", label: "持证人", children: f.holderName },
            { key: "school", label: "学校", children: f.schoolName },
            { key: "award", label: "奖项", children: <Typography.Text strong>{f.awardName}</Typography.Text> },
            ...(f.workTitle ? [{ key: "work", label: "作品名称", children: `《${f.workTitle}》` }] : []),
            ...(f.categoryName ? [{ key: "category", label: "作品类别", children: f.categoryName }] : []),
            { key: "contest", label: "竞赛", children: f.contestName, span: { xs: 1, sm: 1, md: 2 } },
            { key: "date", label: "颁发日期", children: chineseDate(f.contestDate) },
            { key: "issued", label: "本版签发时间", children: fmtTime(f.issuedAt) },
            {
              key: "code",
              label: "验证码",
              span: { xs: 1, sm: 1, md: 2 },
              children: (
                <Typography.Text code copyable style={{ wordBreak: "break-all", fontSize: 12 }}>
                  {code ?? f.code}
                </Typography.Text>
              ),
            },
          ]}
        />
      )}
      {f && (
        <SignatureCheck
          facts={{
            number: f.number,
            version: f.version,
            holderName: f.holderName,
            awardName: f.awardName,
            workTitle: f.workTitle,
            contestName: f.contestName,
            contestDate: f.contestDate,
          }}
          code={code ?? f.code}
          keys={keys}
          keysError={keysError}
          serverSays={check.signature}
        />
      )}
    </Space>
  );
}
