// The AWS SDK clients' default credential chain as the functions' bundles carry it
// (infra/bundling.ts aliases @aws-sdk/credential-provider-node here). Lambda gives every function
// its role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN): the chain's first link, and the one that answers there. The other links
// (SSO, shared ini files, credential processes, web identity, container and instance metadata)
// bring the nested STS, SSO and sign-in clients, about 90 KiB, into every function for nothing.
// Tests and the local runtime run from source with the SDK's full chain.

export interface EnvCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** Same signature as the SDK's `defaultProvider(init)`: the options of the other links do not apply. */
// The SDK's credential chain expects a provider to reject when it has no credentials; async makes the throw below one.
// eslint-disable-next-line @typescript-eslint/require-await
export const defaultProvider = (_init?: unknown) => async (): Promise<EnvCredentials> => {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error(
      'No AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY): a bundled function reads only those',
    );
  }
  const sessionToken = process.env.AWS_SESSION_TOKEN;
  const expiration = process.env.AWS_CREDENTIAL_EXPIRATION;
  return {
    accessKeyId,
    secretAccessKey,
    ...(sessionToken ? { sessionToken } : {}),
    ...(expiration ? { expiration: new Date(expiration) } : {}),
  };
};
