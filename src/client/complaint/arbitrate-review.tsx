/** /admin/ArbitrateManagement (root): arbitration rulings to confirm (they take effect) or return to the arbitrator. */
import type { PageProps } from "../routing/model";
import { ArbitrationList } from "./arbitrate";

export default function ArbitrateManagement({ route }: PageProps) {
  return (
    <ArbitrationList
      desk="review"
      title={route.label}
      intro="仲裁员作出的裁决须经您确认后生效（变更决定的处理措施在确认时执行）；有问题的可退回仲裁员重新裁决。"
    />
  );
}
