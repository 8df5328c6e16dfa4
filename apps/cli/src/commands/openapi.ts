import { writeFile } from 'node:fs/promises';
import { openapiDocument, serializeOpenapi } from '@qiraa/api';

export async function openapiCommand(options: { out?: string }): Promise<void> {
  const text = serializeOpenapi(await openapiDocument());
  if (!options.out) {
    process.stdout.write(text);
    return;
  }
  await writeFile(options.out, text);
  console.error(`wrote ${options.out}`);
}
