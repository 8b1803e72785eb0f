/**
 * /verify-cert (open to everyone, visitors included): 在线查询 by number + holder's name or from
 * the printed QR code, with the signature checked in this browser; 离线核验 of a code against
 * typed printed facts with the published keys only; and the published keys.
 */
import { Card, Grid, Space, Tabs } from "antd";
import { useSearch } from "../routing/use-search";
import { KeysCard } from "./KeysCard";
import { LookupPanel } from "./LookupPanel";
import { OfflinePanel } from "./OfflinePanel";

export default function VerifyCertPage({ route }: { route: { label: string } }) {
  const [params, setParams] = useSearch();
  const tab = params.get("tab") === "offline" ? "offline" : "lookup";
  const narrow = !(Grid.useBreakpoint().sm ?? true);
  const switchTo = (k: string) => {
    const next = new URLSearchParams(params);
    if (k === "offline") next.set("tab", "offline");
    else next.delete("tab");
    setParams(next);
  };
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="verify-cert">
      <Card
        title={`${route.label} · 获奖证书核验`}
        styles={{
          body: { paddingTop: 8, ...(narrow ? { paddingLeft: 12, paddingRight: 12 } : {}) },
          header: narrow ? { paddingLeft: 12, paddingRight: 12 } : {},
        }}
      >
        <Tabs
          activeKey={tab}
          onChange={switchTo}
          items={[
            { key: "lookup", label: "在线查询", children: <LookupPanel /> },
            { key: "offline", label: "离线核验", children: <OfflinePanel /> },
          ]}
        />
      </Card>
      <KeysCard narrow={narrow} />
    </Space>
  );
}
