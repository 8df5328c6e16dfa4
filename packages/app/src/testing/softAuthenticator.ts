import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { encode } from 'cborg';

/**
 * A software passkey authenticator for the specs: a real P-256 key pair (ES256), a real CBOR attestation
 * object of format `none` with a COSE public key, and real DER ECDSA signatures over authenticatorData ‖
 * SHA-256(clientDataJSON), as WebAuthn Level 3 §6.1, §6.5 and §8.7 lay them out. Nothing of the server's
 * library is used to build what it then verifies.
 */
const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface CreationOptionsJSON {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptionsJSON {
  challenge: string;
  rpId?: string;
}

export interface SoftPasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(counter);
  return b;
}

/** COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y. */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** `navigator.credentials.create()`: a new passkey and the registration response JSON. */
export function createPasskey(options: CreationOptionsJSON, origin: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rpId = options.rp.id ?? new URL(origin).hostname;
  const credentialId = randomBytes(16);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    sha256(rpId),
    Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
    counterBytes(0),
    Buffer.alloc(16), // AAGUID: zero for attestation none
    idLength,
    credentialId,
    coseKey(publicKey),
  ]);
  const attestationObject = encode({ fmt: 'none', attStmt: {}, authData });
  const passkey: SoftPasskey = { credentialId, privateKey, userHandle: options.user.id, rpId, counter: 0 };
  const response = {
    id: b64url(credentialId),
    rawId: b64url(credentialId),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  };
  return { passkey, response };
}

/**
 * `navigator.credentials.get()`: an assertion signed with the passkey; the counter goes up by one unless
 * `counter` says which value to send (a cloned authenticator replaying an old counter).
 */
export function assert(
  passkey: SoftPasskey,
  options: RequestOptionsJSON,
  origin: string,
  overrides: { counter?: number; signWith?: KeyObject } = {},
) {
  passkey.counter = overrides.counter ?? passkey.counter + 1;
  const authData = Buffer.concat([
    sha256(options.rpId ?? passkey.rpId),
    Buffer.from([FLAG_UP | FLAG_UV]),
    counterBytes(passkey.counter),
  ]);
  const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
    key: overrides.signWith ?? passkey.privateKey,
    dsaEncoding: 'der',
  });
  return {
    id: b64url(passkey.credentialId),
    rawId: b64url(passkey.credentialId),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  };
}
