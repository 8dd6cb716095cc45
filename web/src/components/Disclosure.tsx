import { Alert, Button, Group, Stack, Switch, Text, Title, type TitleOrder } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { useSectionDisclosure } from '../api/disclosure';
import { ErrorDisplay } from './ErrorDisplay';

interface DisclosureProps {
  /** `<area>:<page>:<section>`, e.g. `health:instance:criteria` (the API's section key). */
  sectionKey: string;
  title: string;
  description?: ReactNode;
  /** Heading level of the title (default 2). */
  order?: TitleOrder;
  /** What the section always shows; a function gets whether the advanced detail is open. */
  children: ReactNode | ((advanced: boolean) => ReactNode);
  /** What it shows in advanced mode only. */
  advanced?: ReactNode;
}

/**
 * A section with advanced detail (progressive disclosure). It opens in the mode stored for its
 * key (GET/PATCH /ui-preferences), and its "Advanced" switch stores the new mode. Clicks inside
 * it and openings of the advanced detail are reported to PATCH /complexity-tiers in batches; when
 * the API suggests a higher tier for the section, a dismissible banner offers it. See
 * docs/console.md ("Progressive disclosure") for how a page adopts it.
 */
export function Disclosure({ sectionKey, title, description, order = 2, children, advanced }: DisclosureProps) {
  const section = useSectionDisclosure(sectionKey);
  const headingId = useId();
  const open = section.ready && section.mode === 'advanced';
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs" onClickCapture={section.reportInteraction}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2}>
          <Title order={order} size="h4" id={headingId}>
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        <Switch
          label="Advanced"
          checked={open}
          disabled={!section.ready}
          onChange={(event) => section.setMode(event.currentTarget.checked ? 'advanced' : 'basic')}
          styles={{ body: { alignItems: 'center' } }}
        />
      </Group>
      {section.suggestion ? (
        <Alert
          variant="light"
          color="blue"
          title={`Try the ${section.suggestion} tier for ${title}?`}
          withCloseButton
          closeButtonLabel={`Dismiss the suggestion for ${title}`}
          onClose={section.dismissSuggestion}
        >
          <Stack gap="xs">
            <Text size="sm">You often open the advanced detail here. At the {section.suggestion} tier this section opens with it.</Text>
            <Group>
              <Button size="xs" onClick={section.acceptSuggestion}>
                Switch to {section.suggestion}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {section.error ? <ErrorDisplay title="The section's setting was not saved" error={section.error} /> : null}
      {typeof children === 'function' ? children(open) : children}
      {open ? advanced : null}
    </Stack>
  );
}
