import { CONTENT_CREDENTIALS_VERIFY_URL, type Generation, type PlanId } from '@mediagen/shared';
import { credentialsSentences, filesOf, servedCopy, unsignedSentence } from '../../content-credentials-texts';

/**
 * What the C2PA manifest signed into an item's file says, in plain words, of the copy its owner gets
 * (`plan`: the marked one on Free), or plainly that the file has none. A set's images are signed alike;
 * the first signed one speaks for them.
 */
export function ContentCredentialsDetails({ generation, plan }: { generation: Generation; plan: PlanId | undefined }) {
  const files = filesOf(generation);
  const signed = files.flatMap((file) => (file.contentCredentials === undefined ? [] : [file.contentCredentials]));
  const first = signed[0];
  if (first === undefined) return <p>{unsignedSentence(files[0]?.mimeType ?? '')}</p>;
  return (
    <>
      <ul className="grid list-disc gap-1 pl-4">
        {credentialsSentences(first, servedCopy(plan)).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      {files.length > 1 && (
        <p>
          {signed.length === files.length
            ? `Each of the ${files.length} images carries its own.`
            : `Content Credentials on ${signed.length} of the ${files.length} images; the rest carry AI metadata only.`}
        </p>
      )}
      <p className="text-slate-600 dark:text-slate-400">
        Anyone can check a downloaded file at{' '}
        <a
          href={CONTENT_CREDENTIALS_VERIFY_URL}
          target="_blank"
          rel="noopener noreferrer"
          className="font-semibold text-violet-700 underline underline-offset-2 hover:text-violet-600 dark:text-violet-300 dark:hover:text-violet-200"
        >
          contentcredentials.org/verify
        </a>
        .
      </p>
    </>
  );
}
