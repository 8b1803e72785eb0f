/**
 * 已处理 on a 待决定的晋级 item (issue 29): the contest admin, having decided what to do about a
 * work whose changed result alters its promotion, dismisses the item. The server records who
 * and when, and shows the item again only when the work's promotion state changes again.
 */
import { useState } from "react";
import { Button, Popconfirm } from "antd";
import { CheckOutlined } from "@ant-design/icons";
import { todoApi } from "../todo/todo-api";

export function PromotionDone({ itemKey, onDone }: { itemKey: string; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const mark = async () => {
    setBusy(true);
    // The server's answer (已标记为已处理, or why not) is shown by the request layer.
    const r = await todoApi.promotionDone(itemKey);
    setBusy(false);
    // Done, or gone already (marked by another admin, or the situation changed): the list is read again.
    if (r.error === 0 || r.status === 404) onDone();
  };
  return (
    <Popconfirm
      title="标记为已处理？"
      description="标记后此事项不再显示；作品的晋级情况再次变化时会重新提醒。"
      okText="已处理"
      cancelText="取消"
      onConfirm={mark}
    >
      <Button size="small" icon={<CheckOutlined />} loading={busy} data-testid="todo-promotion-done">
        已处理
      </Button>
    </Popconfirm>
  );
}
