import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useState } from 'react';

interface NumberFieldProps extends Omit<NumberInputProps, 'value' | 'onChange'> {
  value: number;
  /** Called with each complete number typed; a cleared or unfinished entry ("-") is kept on screen only. */
  onValue: (value: number) => void;
}

/**
 * A number input bound to a number in an editor's draft. What is typed stays as typed while it is
 * not a number yet (clearing the field to type "-50"), and a new draft value replaces it.
 */
export function NumberField({ value, onValue, ...props }: NumberFieldProps) {
  const [text, setText] = useState<number | string>(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  return (
    <NumberInput
      {...props}
      value={text}
      onChange={(next) => {
        setText(next);
        if (typeof next === 'number') {
          setShown(next);
          onValue(next);
        }
      }}
    />
  );
}
