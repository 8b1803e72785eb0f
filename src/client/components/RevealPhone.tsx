/**
 * A phone as the server sent it — masked (138****5678) unless it is the viewer's own — with a
 * 「显示」 link for a role that may see it in full: the click asks the reveal route (audited on
 * the server, issue 28) and shows the full number in place. The caller decides `canReveal`
 * (policy object api.phoneReveal plus what it knows of the row); the server checks the scope.
 */
import { useState } from "react";
import { Button, Space, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { isMaskedPhone, type RevealedPhone } from "../../shared/mask";
import { fetchData } from "../request";

export interface RevealPhoneProps {
  phone: string | null | undefined;
  /** the reveal route, e.g. /Backend/Admin/user/12/phone */
  url: string;
  canReveal: boolean;
  /** what the phone belongs to, for the link's accessible name (e.g. 申诉人) */
  owner?: string;
  /** the full number once shown (a form puts it into its field) */
  onRevealed?: (phone: string | null) => void;
  /** only the link (a form shows the number in its own field) */
  linkOnly?: boolean;
}

export function RevealPhone({ phone, url, canReveal, owner, onRevealed, linkOnly }: RevealPhoneProps) {
  const [asked, setAsked] = useState(false);
  const full = useQuery({
    queryKey: ["phone-reveal", url],
    queryFn: async () => {
      const r = await fetchData<RevealedPhone>(url);
      onRevealed?.(r.phone);
      return r;
    },
    enabled: asked,
    // Each reveal is one audited view: never served from a cache or repeated behind the user's back.
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  if (!phone) return <>—</>;
  if (full.data) return linkOnly ? null : <span data-testid="phone-full">{full.data.phone ?? "—"}</span>;
  const masked = isMaskedPhone(phone);
  return (
    <Space size={4}>
      {!linkOnly && <span>{phone}</span>}
      {masked && canReveal && (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: "auto" }}
          loading={full.isFetching}
          aria-label={`显示${owner ?? ""}完整手机号`}
          onClick={() => setAsked(true)}
        >
          显示
        </Button>
      )}
      {full.error && <Typography.Text type="danger">{full.error.message}</Typography.Text>}
    </Space>
  );
}
