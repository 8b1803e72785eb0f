/**
 * GET /Backend/ComplaintManagement/complaints/:id/filer-phone: the filer's phone in full for a
 * handler who must call back (the detail shows it masked). Allowed by the policy object
 * api.phoneReveal (root, users with the complaint right) and then only on a complaint the
 * caller may open (else 404 like an unknown id). Each reveal is audited and limited per caller.
 */
import { Envelope } from "../../shared/envelope";
import { ComplaintIdParam } from "../../shared/complaint/schema";
import { PHONE_REVEALS_PER_MINUTE, RevealedPhone } from "../../shared/mask";
import { record } from "../common/audit";
import { perUser } from "../plugins/limits";
import { type ComplaintRouteKit, tags, ok } from "./route-kit";
import { revealFilerPhone } from "./views";

export function complaintContactRoutes(kit: ComplaintRouteKit) {
  const { r, db } = kit;
  r.get(
    "/Backend/ComplaintManagement/complaints/:id/filer-phone",
    {
      schema: {
        tags,
        summary: "查看申诉人的完整手机号（以便回电；详情中为脱敏显示），每次查看记入操作日志",
        params: ComplaintIdParam,
        response: { 200: Envelope(RevealedPhone) },
      },
      config: { access: ["api.phoneReveal", "read"], limits: [perUser("phone-reveal", PHONE_REVEALS_PER_MINUTE)] },
    },
    async (req) => {
      const out = await revealFilerPhone(db, req.user!, req.params.id);
      await record(db, req.user!.id, { entity: "complaint", entityId: out.id, action: "view_phone", changes: {} });
      return ok(out);
    },
  );
}
