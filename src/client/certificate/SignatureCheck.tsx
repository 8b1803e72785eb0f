/**
 * The in-browser signature check of a certificate's code against its facts, shown as one
 * alert: 「签名已在本机核验：由 … 公钥签发（有效期 …）」 or 「签名不符：…」.
 */
import { useEffect, useState } from "react";
import { Alert } from "antd";
import type { CertificateKey } from "../../shared/certificate/schema";
import type { SignedFacts } from "../../shared/certificate/signed-facts";
import { describeCheck, failureDetail, verifyLocally, type LocalCheck } from "./verify-local";

export function CheckAlert({ check, testId = "signature-check" }: { check: LocalCheck; testId?: string }) {
  const type = check.result === "valid" ? "success" : check.result === "unsupported" ? "warning" : "error";
  return (
    <Alert
      type={type}
      showIcon
      message={<span data-testid={testId}>{describeCheck(check)}</span>}
      description={failureDetail(check)}
      data-result={check.result}
    />
  );
}

export function SignatureCheck({
  facts,
  code,
  keys,
  keysError,
  serverSays,
}: {
  facts: SignedFacts;
  code: string;
  keys: readonly CertificateKey[] | undefined;
  keysError?: string;
  serverSays?: "valid" | "invalid" | null;
}) {
  const [check, setCheck] = useState<LocalCheck | null>(null);
  const factsKey = JSON.stringify(facts);
  useEffect(() => {
    setCheck(null);
    if (!keys) return;
    let live = true;
    void verifyLocally(facts, code, keys).then((c) => live && setCheck(c));
    return () => {
      live = false;
    };
    // facts compared by value
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [factsKey, code, keys]);
  if (keysError && !keys)
    return (
      <Alert
        type="warning"
        showIcon
        message={`${keysError}，未能在本机核验签名`}
        description={serverSays ? `服务器核验结果：${serverSays === "valid" ? "签名有效" : "签名不符"}` : null}
      />
    );
  if (!check) return <Alert type="info" showIcon message="正在本机核验签名…" />;
  if (check.result === "unsupported" && serverSays)
    return (
      <Alert
        type="warning"
        showIcon
        message={describeCheck(check)}
        description={`服务器核验结果：${serverSays === "valid" ? "签名有效" : "签名不符：证书内容被改动或为伪造"}`}
      />
    );
  return <CheckAlert check={check} />;
}
