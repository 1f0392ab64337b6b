// GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`), which become annotations on a diff.
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions

export interface AnnotationProperties {
  file: string;
  line: number;
  col?: number;
  title: string;
}

/** One workflow command; data and properties escaped so a message can never end the command or start another. */
export function githubCommand(
  command: 'error' | 'warning' | 'notice',
  properties: AnnotationProperties,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${command} ${props}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
