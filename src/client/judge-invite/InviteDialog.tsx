/**
 * The invitation dialog of a contest admin: the selected pool persons and/or new people (name
 * and email), the categories, a message and the answer-by date. Before sending, the conflict
 * check (a dry run) shows per person how many works of each category they would have to avoid
 * and why, and whether the current judges plus the invitees can give every work N
 * conflict-free judges — warnings with numbers; sending stays possible. The check's result is
 * CheckResult.tsx, the other pieces invite-dialog-parts.tsx.
 */
import { useState } from "react";
import type { Dayjs } from "dayjs";
import { Alert, Form, Modal, TreeSelect, Typography } from "antd";
import type { CheckBody, ConflictCheck, InviteOutcome } from "../../shared/judge-invite/schema";
import { ContestSelect } from "../notice/contest-select";
import { inviteApi } from "./api";
import { useContestChoice, usePoolNames } from "./use-invite-dialog";
import { bj, bjDate } from "../format";
import { CheckResult } from "./CheckResult";
import { AnswerByAndMessage, NewPeopleList, PickedTags, SentResult, inviteFooter } from "./invite-dialog-parts";

interface Values {
  people: { name: string; email: string }[];
  categoryIds: number[];
  message?: string;
  answerBy: Dayjs;
}

/**
 * contestId: the contest to invite to; without one (from the pool table's selection) the
 * admin picks one of their contests in the dialog. personIds: pool persons (their names show
 * in the check's table).
 */
export function InviteDialog({
  contestId: given,
  personIds,
  open,
  onClose,
  onSent,
}: {
  contestId?: number;
  personIds: number[];
  open: boolean;
  onClose: () => void;
  onSent?: (o: InviteOutcome) => void;
}) {
  const [form] = Form.useForm<Values>();
  const { chosen, setChosen, contestId, contest, treeData } = useContestChoice(given, open);
  const [picked, setPicked] = useState<number[]>(personIds);
  const names = usePoolNames(personIds);
  const [check, setCheck] = useState<{ key: string; r: ConflictCheck } | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<"check" | "send" | null>(null);
  const [sent, setSent] = useState<{ info: string; o: InviteOutcome } | null>(null);

  const bodyOf = (v: Values): CheckBody => ({
    personIds: picked,
    people: (v.people ?? []).filter((x) => x?.email?.trim()).map((x) => ({ name: x.name.trim(), email: x.email.trim() })),
    categoryIds: v.categoryIds ?? [],
  });

  const runCheck = async () => {
    const v = await form.validateFields();
    const body = bodyOf(v);
    setError(undefined);
    if (!chosen) return setError("请选择赛事");
    setBusy("check");
    const r = await inviteApi.check(contestId, body);
    setBusy(null);
    if (r.error !== 0 || !r.data) return setError(r.info || "检查失败，请稍后重试");
    setCheck({ key: JSON.stringify(body), r: r.data });
  };
  const send = async () => {
    const v = await form.validateFields();
    const body = bodyOf(v);
    setError(undefined);
    setBusy("send");
    const r = await inviteApi.send(contestId, { ...body, message: v.message?.trim() || undefined, answerBy: bjDate(v.answerBy) });
    setBusy(null);
    if (r.error !== 0 || !r.data) return setError(r.info || "发送失败，请稍后重试");
    setSent({ info: r.info, o: r.data });
    onSent?.(r.data);
  };
  const checkedNow = () => {
    try {
      return !!check && check.key === JSON.stringify(bodyOf(form.getFieldsValue(true) as Values));
    } catch {
      return false;
    }
  };
  const [, force] = useState(0);

  const footer = inviteFooter({
    sent: !!sent,
    busy,
    canSend: checkedNow(),
    onClose,
    onCheck: () => void runCheck(),
    onSend: () => void send(),
  });

  return (
    <Modal
      open={open}
      width={960}
      title={`邀请评委${contest.data ? ` · ${contest.data.name}` : ""}`}
      onCancel={onClose}
      footer={footer}
      destroyOnClose
      keyboard={false}
      maskClosable={false}
      modalRender={(node) => <div data-testid="invite-dialog">{node}</div>}
    >
      {sent ? (
        <SentResult info={sent.info} o={sent.o} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            people: picked.length ? [] : [{ name: "", email: "" }],
            categoryIds: [],
            answerBy: bj().add(14, "day"),
          }}
          onValuesChange={() => force((n) => n + 1)}
        >
          {!given && (
            <Form.Item label="赛事" required>
              <ContestSelect
                style={{ width: 420 }}
                value={chosen}
                onChange={(v) => {
                  setChosen(v);
                  setCheck(null);
                }}
                data-testid="invite-contest"
              />
            </Form.Item>
          )}
          {picked.length > 0 && (
            <PickedTags
              picked={picked}
              check={check?.r}
              names={names}
              onRemove={(id) => setPicked((x) => x.filter((y) => y !== id))}
            />
          )}
          <NewPeopleList pickedCount={picked.length} />
          <Form.Item
            name="categoryIds"
            label="评审类别"
            rules={[{ required: true, type: "array", min: 1, message: "请选择评审类别" }]}
          >
            <TreeSelect
              treeData={treeData}
              multiple
              treeCheckable
              showCheckedStrategy={TreeSelect.SHOW_PARENT}
              placeholder="选择大类或小类"
              loading={contest.isLoading}
              data-testid="invite-categories"
            />
          </Form.Item>
          <AnswerByAndMessage />
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="invite-error" />}
          {check &&
            (checkedNow() ? (
              <CheckResult r={check.r} />
            ) : (
              <Alert type="info" showIcon message="人员或类别已修改，请重新进行回避检查后发送" />
            ))}
          {!check && (
            <Typography.Text type="secondary">
              发送前请先进行回避检查：查看每位受邀者须回避的作品数，以及评委是否足够。
            </Typography.Text>
          )}
        </Form>
      )}
    </Modal>
  );
}
