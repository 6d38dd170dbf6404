/** isomorphic-git and its Node HTTP client, loaded on first use (importing them takes time). */
let loaded: Promise<typeof import('isomorphic-git')> | undefined;
let loadedHttp: Promise<typeof import('isomorphic-git/http/node')> | undefined;

export function isomorphicGit(): Promise<typeof import('isomorphic-git')> {
  loaded ??= import('isomorphic-git');
  return loaded;
}

type HttpClient = typeof import('isomorphic-git/http/node')['default'];
type HttpResponse = Awaited<ReturnType<HttpClient['request']>>;

/** An HTTP client for isomorphic-git that gives up on a silent remote; see {@link isomorphicHttp}. */
export interface IdleHttp {
  client: HttpClient;
  /**
   * The timeout that cut a request short, if one did. Check it after each isomorphic-git call:
   * the library reads a body that failed halfway as one that ended (an advertisement cut short
   * parses as a repository without that branch), so the failure must not be taken from its result.
   */
  failure(): Error | undefined;
}

/**
 * isomorphic-git's Node HTTP client, with every request abandoned after `idleTimeoutMs` without
 * a byte: a server that accepts and never answers, or stops halfway through its answer, fails the
 * call instead of hanging the run. The guard is ours, around the answer and each chunk of its
 * body; the client's own socket timeout, a little later, closes the connection.
 */
export async function isomorphicHttp(idleTimeoutMs: number): Promise<IdleHttp> {
  loadedHttp ??= import('isomorphic-git/http/node');
  const { default: http } = await loadedHttp;
  let failure: Error | undefined;
  const within = <T>(promise: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        failure ??= new Error(`timed out: the remote sent nothing for ${idleTimeoutMs} ms`);
        reject(failure);
      }, idleTimeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  async function* guarded(body: NonNullable<HttpResponse['body']>) {
    const chunks = body[Symbol.asyncIterator]();
    while (true) {
      const step = await within(chunks.next());
      if (step.done) return;
      yield step.value;
    }
  }
  return {
    client: {
      request: async (request) => {
        const response = await within(
          http.request({
            ...request,
            fetchOptions: { ...request.fetchOptions, timeout: idleTimeoutMs + 2000 },
          }),
        );
        return response.body === undefined
          ? response
          : { ...response, body: guarded(response.body) };
      },
    },
    failure: () => failure,
  };
}
