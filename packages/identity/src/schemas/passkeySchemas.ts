import { Type } from 'typebox';

const Base64Url = (maxLength: number) => Type.String({ pattern: '^[A-Za-z0-9_-]+$', minLength: 1, maxLength });
const Transport = Type.String({ enum: ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] });
const Attachment = Type.Optional(Type.String({ enum: ['platform', 'cross-platform'] }));
// The client's extension outputs are passed through to the verifier unread.
const ExtensionResults = Type.Object({}, { additionalProperties: true });

/** `PublicKeyCredential.toJSON()` of a `navigator.credentials.create()` (WebAuthn level 3). */
export const RegistrationResponse = Type.Object(
  {
    id: Base64Url(1024),
    rawId: Base64Url(1024),
    type: Type.Literal('public-key'),
    response: Type.Object({
      clientDataJSON: Base64Url(4096),
      attestationObject: Base64Url(65_536),
      authenticatorData: Type.Optional(Base64Url(65_536)),
      transports: Type.Optional(Type.Array(Transport, { maxItems: 7 })),
      publicKeyAlgorithm: Type.Optional(Type.Integer({ minimum: -65_536, maximum: 65_536 })),
      publicKey: Type.Optional(Base64Url(4096)),
    }),
    authenticatorAttachment: Attachment,
    clientExtensionResults: ExtensionResults,
  },
  { additionalProperties: false },
);

/** `PublicKeyCredential.toJSON()` of a `navigator.credentials.get()`. */
export const AuthenticationResponse = Type.Object(
  {
    id: Base64Url(1024),
    rawId: Base64Url(1024),
    type: Type.Literal('public-key'),
    response: Type.Object({
      clientDataJSON: Base64Url(4096),
      authenticatorData: Base64Url(65_536),
      signature: Base64Url(4096),
      userHandle: Type.Optional(Base64Url(1024)),
    }),
    authenticatorAttachment: Attachment,
    clientExtensionResults: ExtensionResults,
  },
  { additionalProperties: false },
);

// Options go to `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON` as they are.
export const CreationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          type: Type.String(),
          transports: Type.Optional(Type.Array(Type.String())),
        }),
      ),
    ),
    authenticatorSelection: Type.Optional(Type.Object({}, { additionalProperties: true })),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Object({}, { additionalProperties: true })),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'PublicKeyCredentialCreationOptionsJSON' },
);

export const RequestOptions = Type.Object(
  {
    challenge: Type.String(),
    rpId: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer()),
    userVerification: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
    extensions: Type.Optional(Type.Object({}, { additionalProperties: true })),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'PublicKeyCredentialRequestOptionsJSON' },
);

export const PasskeyResponse = Type.Object({
  id: Type.String({ description: 'credential id, base64url' }),
  transports: Type.Array(Type.String()),
  deviceType: Type.String({ enum: ['singleDevice', 'multiDevice'] }),
  backedUp: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const EmptyBody = Type.Object({}, { additionalProperties: false });
export const CredentialParams = Type.Object({ credentialId: Base64Url(1024) });
