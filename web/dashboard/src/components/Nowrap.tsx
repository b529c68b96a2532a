import type { ReactNode } from 'react';

/** A table cell's value kept on one line (timestamps, ids). */
export const Nowrap = ({ children }: { children: ReactNode }) => (
  <span style={{ whiteSpace: 'nowrap' }}>{children}</span>
);
