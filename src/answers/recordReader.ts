import { GitHubError, type ReaderOrigin } from "../github/errors.js";

/**
 * Runs a read of GitHub and, when it fails with a GitHub error, records on the error whose token
 * read: the asker's own sign-in, the server's token or the default one, and whether that token
 * reads public repositories only. The client cannot know; its sentence needs to (nobody already
 * signed in is told to `/login`; a server token that cannot see a repository is named as such).
 */
export async function recordReader<T>(
  reader: { origin: ReaderOrigin; publicOnly: boolean },
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof GitHubError) error.readWith(reader);
    throw error;
  }
}
