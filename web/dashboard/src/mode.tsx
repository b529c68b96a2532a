import { createContext, type ReactNode, useContext, useState } from 'react';

export type Mode = 'live' | 'test';

const ModeContext = createContext<{ mode: Mode; setMode: (mode: Mode) => void }>({
  mode: 'test',
  setMode: () => {},
});

const STORAGE_KEY = 'svc.dashboard.mode';
const stored = (): Mode => (globalThis.localStorage?.getItem(STORAGE_KEY) === 'live' ? 'live' : 'test');

/** The live/test switch: every workspace call carries it. Remembered per browser (it is not a secret). */
export function ModeProvider({ children }: { children: ReactNode }) {
  const [mode, setState] = useState<Mode>(stored);
  const setMode = (next: Mode) => {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
    setState(next);
  };
  return <ModeContext value={{ mode, setMode }}>{children}</ModeContext>;
}

export const useMode = () => useContext(ModeContext);
