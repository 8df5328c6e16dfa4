/**
 * @simplewebauthn/server, loaded with the first passkey ceremony rather than with the app: about 0.3 CPU-s of
 * every start of the API, the worker and the CLI, and of every test worker (the same reason as pdf-kit's
 * pdfLib.ts).
 */
export const webauthn = () => import('@simplewebauthn/server');
