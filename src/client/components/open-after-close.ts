/**
 * "Create in a modal, then open what was made": the opening waits for the modal's
 * `afterClose`. A closing antd modal hands focus back to the button that opened it when its
 * animation ends; a drawer opened before then loses focus to that button (keys typed into
 * its first field go astray, a select opened in it closes).
 *
 *   const later = useOpenAfterClose(openWork);
 *   <Modal … onOk={…later.open(created.id)…} afterClose={later.afterClose} />
 */
import { useState } from "react";

export function useOpenAfterClose<T>(open: (value: T) => void): { open: (value: T) => void; afterClose: () => void } {
  const [pending, setPending] = useState<{ value: T } | null>(null);
  return {
    open: (value) => setPending({ value }),
    afterClose: () => {
      if (pending) open(pending.value);
      setPending(null);
    },
  };
}
