/** Merging two selected duplicates: both shown side by side, the record to keep chosen, a Chinese confirmation. */
import { useEffect, useState } from "react";
import { Alert, App, Col, Modal, Radio, Row, Typography } from "antd";
import type { JudgePersonView } from "../../shared/judge-pool/schema";
import { poolApi } from "./api";
import { PersonFacts } from "./parts";

export function MergeModal({
  pair,
  onClose,
  onMerged,
}: {
  pair: [JudgePersonView, JudgePersonView] | null;
  onClose: () => void;
  onMerged: (kept: JudgePersonView) => void;
}) {
  const [keep, setKeep] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  useEffect(() => {
    // Keep the one with an account, else the one judged more, else the older record.
    if (pair)
      setKeep(
        [...pair].sort((a, b) => Number(!!b.account) - Number(!!a.account) || b.contests - a.contests || a.id - b.id)[0].id,
      );
    setError(null);
  }, [pair]);
  if (!pair) return null;
  const kept = pair.find((p) => p.id === keep) ?? pair[0];
  const other = pair.find((p) => p.id !== kept.id)!;
  const merge = async () => {
    setBusy(true);
    const r = await poolApi.merge({ keepId: kept.id, mergeId: other.id });
    setBusy(false);
    if (r.error !== 0 || !r.data) return setError(r.info);
    message.success(r.info);
    onMerged(r.data);
  };
  const contact = (p: JudgePersonView) => (p.contactVisible ? `${p.email ?? "—"}｜${p.phone ?? "—"}` : "无权查看");
  return (
    <Modal
      open
      title="合并重复的评委记录"
      width={1000}
      onCancel={onClose}
      onOk={merge}
      okText="确认合并"
      okButtonProps={{ danger: true, loading: busy, "data-testid": "merge-confirm" } as never}
      cancelText="取消"
      destroyOnHidden
    >
      <Typography.Paragraph>请选择要保留的记录：</Typography.Paragraph>
      <Radio.Group value={kept.id} onChange={(e) => setKeep(e.target.value)} style={{ width: "100%" }}>
        <Row gutter={16}>
          {pair.map((p) => (
            <Col span={12} key={p.id}>
              <Radio value={p.id} style={{ marginBottom: 8 }} data-testid={`merge-keep-${p.id}`}>
                保留「{p.name}」（编号 {p.id}，参评 {p.contests} 次）
              </Radio>
              <PersonFacts p={p} contact={contact(p)} column={1} />
            </Col>
          ))}
        </Row>
      </Radio.Group>
      <Alert
        style={{ marginTop: 16 }}
        type="warning"
        showIcon
        data-testid="merge-summary"
        message={`确认将「${other.name}」（编号 ${other.id}）合并到「${kept.name}」（编号 ${kept.id}）？`}
        description={`合并后保留「${kept.name}」这条记录：「${other.name}」的评审类别、专业特长、年度参评意愿和评委邀请并入保留的记录${other.account && !kept.account ? "，其账号也关联到保留的记录" : ""}；两条记录的评审经历合并显示。保留记录中空缺的学校、省份、职称${other.contactVisible ? "和联系方式" : "（被合并记录的联系方式您无权查看，不会补入）"}由被合并的记录补上。被合并的记录不再出现在评委库中，此操作不能撤销。`}
      />
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} />}
    </Modal>
  );
}
