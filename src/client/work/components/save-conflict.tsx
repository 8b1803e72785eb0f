/**
 * A save that lost a race (409 作品已被他人修改, the newer version in data.work): the
 * student's typing is kept. The dialog names the fields someone else changed and those both
 * changed; 保留我的修改 puts the newer version under the form (its version, the others'
 * changes in the fields the student did not touch, the student's text where they did) to
 * check and save again; 载入最新版本 drops the student's changes for the newer version.
 */
import { App, Typography } from "antd";
import type { WorkView } from "../../../shared/work/schema";
import type { ClientReply } from "../../request";

type Values = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Three-way merge of form values: `base` as loaded, `mine` as typed, `theirs` the newer
 * version. A field only the others changed takes theirs; one the student changed keeps
 * mine (a clash when they changed it too, to something else).
 */
export function mergeEdits<V extends Values>(base: V, mine: V, theirs: V) {
  const merged = { ...mine };
  const theirsChanged: (keyof V)[] = [];
  const clashes: (keyof V)[] = [];
  for (const k of Object.keys(theirs) as (keyof V)[]) {
    if (same(base[k], theirs[k])) continue;
    theirsChanged.push(k);
    if (!(k in mine) || same(base[k], mine[k])) merged[k] = theirs[k];
    else if (!same(mine[k], theirs[k])) clashes.push(k);
  }
  return { merged, theirsChanged, clashes };
}

/** The newer version a 409 reply carries, if any. */
export const newerOf = (r: ClientReply): WorkView | undefined =>
  r.status === 409 ? (r.data as { work?: WorkView } | undefined)?.work : undefined;

export function useSaveConflict() {
  const { modal, message } = App.useApp();
  return function resolve<V extends Values>(o: {
    info: string;
    base: V;
    mine: V;
    theirs: V;
    label: (k: keyof V) => string;
    /** the form shows these values over the newer version */
    apply: (values: V) => void;
  }) {
    const { merged, theirsChanged, clashes } = mergeEdits(o.base, o.mine, o.theirs);
    const names = (ks: (keyof V)[]) => ks.map((k) => `「${o.label(k)}」`).join("、");
    modal.confirm({
      title: "作品已被他人修改，本次修改未保存",
      width: 520,
      content: (
        <div data-testid="save-conflict">
          <Typography.Paragraph>{o.info}</Typography.Paragraph>
          {theirsChanged.length > 0 && <Typography.Paragraph>他人修改了：{names(theirsChanged)}。</Typography.Paragraph>}
          {clashes.length > 0 && (
            <Typography.Paragraph type="warning">
              {names(clashes)}您和他人都修改了：保留您的修改将覆盖他人的内容，请核对。
            </Typography.Paragraph>
          )}
          <Typography.Paragraph type="secondary">
            保留我的修改：在最新版本上保留您填写的内容（其余字段采用他人的修改），核对后请再次保存。
          </Typography.Paragraph>
        </div>
      ),
      // Only the two buttons answer: an Escape must not drop the typing.
      keyboard: false,
      okText: "保留我的修改",
      cancelText: "载入最新版本",
      onOk: () => {
        o.apply(merged);
        void message.info("已载入最新版本并保留您的修改，请核对后再次保存");
      },
      onCancel: () => o.apply(o.theirs),
    });
  };
}
