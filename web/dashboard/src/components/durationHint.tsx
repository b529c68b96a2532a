import { Code } from '@mantine/core';

/** An ISO 8601 duration field's hint: `examples` (code, meaning) as code, then `rest`. */
export const durationHint = (examples: [string, string][], rest = '') => (
  <>
    ISO 8601, e.g.{' '}
    {examples.map(([code, meaning], i) => (
      <span key={code}>
        {i > 0 && ', '}
        <Code fz="inherit">{code}</Code> ({meaning})
      </span>
    ))}
    {rest}
  </>
);
