import { Button } from '@blueprintjs/core';
import { type ComponentProps, useState } from 'react';
import { InputGroupField } from './InputGroupField';

type Props = Omit<ComponentProps<typeof InputGroupField>, 'type' | 'rightElement'>;

/** A masked InputGroupField with a button that reveals what was typed. */
export function PasswordField(props: Props) {
  const [visible, setVisible] = useState(false);
  return (
    <InputGroupField
      {...props}
      type={visible ? 'text' : 'password'}
      rightElement={
        <Button
          variant="minimal"
          icon={visible ? 'eye-off' : 'eye-open'}
          aria-label={
            visible
              ? `Hide ${String(props.label).toLowerCase()}`
              : `Show ${String(props.label).toLowerCase()}`
          }
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        />
      }
    />
  );
}
