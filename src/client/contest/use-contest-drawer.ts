/**
 * The contest drawer's state around refine's useDrawerForm: which level a new contest has
 * (fixed by the page or by the parent it is added under), the form values ↔ API body
 * mapping, and server field errors of stages put on the stage's row.
 */
import { useRef, useState } from "react";
import { useDrawerForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import type { FormInstance } from "antd";
import type { ContestCreate, ContestUpdate, ContestView } from "../../shared/contest/schema";
import type { ContestLevelKey } from "../../shared/contest/stages";
import { formNotices } from "../crud/notify";
import { newContestValues, stagesOf, toFormValues, toPayload, type ContestFormValues } from "./form-values";

export interface CreateHint {
  level: ContestLevelKey;
  parent?: { id: number; name: string; province: string | null; year: number };
}

export function useContestDrawer(action: "create" | "edit", opts: { restricted?: boolean; onSaved?: () => void } = {}) {
  const restricted = !!opts.restricted;
  const rows = useRef<number[]>([]);
  const formRef = useRef<FormInstance | null>(null);
  const [hint, setHint] = useState<CreateHint | null>(null);
  const drawer = useDrawerForm<ContestView, HttpError, ContestCreate | ContestUpdate>({
    resource: "contests",
    action,
    redirect: false,
    ...formNotices("赛事"),
    onMutationSuccess: () => opts.onSaved?.(),
    onMutationError: (error) => {
      // The server names a stage by its index in the body: show it on that stage's row.
      for (const [key, msg] of Object.entries(error?.errors ?? {})) {
        const m = /^stages\.(\d+)\./.exec(key);
        const row = m ? rows.current[Number(m[1])] : undefined;
        if (row !== undefined) formRef.current?.setFields([{ name: ["stages", row, "range"] as never, errors: [String(msg)] }]);
      }
    },
  });
  formRef.current = drawer.form;
  const record = action === "edit" ? drawer.query?.data?.data : undefined;
  const level: ContestLevelKey | undefined = action === "edit" ? record?.level : hint?.level;

  const initialValues = action === "edit" ? toFormValues(record) : newContestValues(hint?.parent?.id, hint?.parent?.year);

  return {
    drawer,
    record,
    level,
    hint,
    restricted,
    initialValues,
    formName: `contest-${action}`,
    openCreate(h: CreateHint) {
      setHint(h);
      drawer.show();
      drawer.form.resetFields();
      drawer.form.setFieldsValue(newContestValues(h.parent?.id, h.parent?.year) as never);
    },
    /** After a delete: the drawer no longer asks for the deleted record. */
    forget(id: number) {
      if (drawer.id === id) drawer.setId?.(undefined);
    },
    openEdit(id: number) {
      drawer.show(id);
      drawer.form.resetFields();
    },
    submit(values: ContestFormValues) {
      if (!level) return;
      rows.current = stagesOf(values.stages).formRow;
      return Promise.resolve(drawer.formProps.onFinish?.(toPayload(values, level, restricted))).catch(() => undefined);
    },
  };
}

export type ContestDrawerState = ReturnType<typeof useContestDrawer>;
