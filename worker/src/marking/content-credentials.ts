import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { X509Certificate } from '@peculiar/x509';
import { JPEG, MP3, PNG, type Asset } from '@trustnxt/c2pa-ts/asset';
import { CoseAlgorithmIdentifier, type Signer } from '@trustnxt/c2pa-ts/cose';
import {
  ActionAssertion,
  ActionType,
  DataHashAssertion,
  DigitalSourceType,
  IngredientAssertion,
  ManifestStore,
  RelationshipType,
  type Action,
} from '@trustnxt/c2pa-ts/manifest';
import { WebTimestampProvider } from '@trustnxt/c2pa-ts/rfc3161';
import {
  canCarryContentCredentials,
  type C2paAction,
  type ContentCredentialsFormat,
  type ContentCredentialsSummary,
} from '@mediagen/shared';
import { CREATOR_TOOL } from './ai-content-marks';

/** What the product says it is in every manifest it signs (the claim generator). */
export const PRODUCT_VERSION = '1.0.0';

/**
 * The formats the released `@trustnxt/c2pa-ts` (0.9) can embed a manifest in (CONTENT_CREDENTIALS_FORMATS,
 * which the client reads too). Every other one (WAV, Ogg/Opus/FLAC/AAC, WebP, MP4) keeps its plain
 * AI-content metadata only: the seam where a format is added when the library signs it (its BMFF hashing
 * is tested on HEIC, not on the MP4s MiniMax returns).
 */
const SIGNABLE_FORMATS: Record<ContentCredentialsFormat, (bytes: Uint8Array) => Asset> = {
  'image/png': (bytes) => new PNG(bytes),
  'image/jpeg': (bytes) => new JPEG(bytes),
  'audio/mpeg': (bytes) => new MP3(bytes),
};

/** The key and certificates a manifest is signed with: PKCS#8 and X.509 PEM, the signing certificate first. */
export interface SigningCredentials {
  privateKeyPem: string;
  certificateChainPem: string;
  /** RFC 3161 timestamp authority: the signature then stays valid after the certificate expires. */
  timestampUrl: string | null;
}

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----([\s\S]+?)-----END \1-----/g;

function pemBlocks(pem: string, label: string): Uint8Array<ArrayBuffer>[] {
  return [...pem.matchAll(PEM_BLOCK)]
    .filter((match) => match[1] === label)
    .map((match) => new Uint8Array(Buffer.from(match[2]!.replace(/\s/g, ''), 'base64')));
}

/**
 * ES256 as COSE defines it (RFC 9053): the signature is r and s side by side. The library's own
 * LocalSigner (0.9.4) writes them DER-encoded, which the CAI's reader (c2pa-rs) refuses as
 * `signingCredential.invalid`; node:crypto writes them as COSE wants.
 */
class Es256Signer implements Signer {
  readonly algorithm = CoseAlgorithmIdentifier.ES256;

  constructor(
    private readonly key: KeyObject,
    readonly certificate: X509Certificate,
    readonly chainCertificates: X509Certificate[],
  ) {}

  sign(payload: Uint8Array): Promise<Uint8Array> {
    return Promise.resolve(sign('sha256', payload, { key: this.key, dsaEncoding: 'ieee-p1363' }));
  }
}

/** The original's and the marked copy's actions, as every manifest lists them (and the summary says). */
const ORIGINAL_ACTIONS = [ActionType.C2paCreated] as const satisfies readonly C2paAction[];
const MARKED_ACTIONS = [ActionType.C2paOpened, ActionType.C2paWatermarked] as const satisfies readonly C2paAction[];

/** Both copies of an output, signed, and what their manifests say (kept with the stored output). */
export interface SignedOutput {
  clean: Uint8Array;
  marked: Uint8Array;
  summary: ContentCredentialsSummary;
}

/**
 * Signs outputs with a C2PA manifest: `c2pa.created` with the IPTC source type trainedAlgorithmicMedia and
 * the model for the original, and for the copy with the product mark `c2pa.opened` over the original as its
 * parent ingredient, then `c2pa.watermarked`. The manifest is embedded last: nothing may rewrite the file
 * after it, or its hash no longer matches.
 */
export class ContentCredentials {
  private readonly signer: Signer;
  private readonly timestamps: WebTimestampProvider | undefined;
  /** The signing certificate's subject, as the worker says at start who signs. */
  readonly subject: string;
  /** Who signed, as checkers (c2pa-rs) read the certificate: its common name and its organization. */
  private readonly signerNames: Pick<ContentCredentialsSummary, 'signedBy' | 'issuer'>;

  constructor(credentials: SigningCredentials) {
    const [certificate, ...chain] = pemBlocks(credentials.certificateChainPem, 'CERTIFICATE').map(
      (der) => new X509Certificate(der),
    );
    if (certificate === undefined) throw new Error('C2PA_CERT_CHAIN holds no "CERTIFICATE" PEM block');
    const key = createPrivateKey(credentials.privateKeyPem);
    // ES256 (P-256) is what the C2PA trust lists' CAs issue most; the dev pair is one too.
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('C2PA_SIGNING_KEY must be an EC P-256 key (ES256)');
    }
    this.signer = new Es256Signer(key, certificate, chain);
    this.timestamps =
      credentials.timestampUrl === null ? undefined : new WebTimestampProvider(credentials.timestampUrl);
    this.subject = certificate.subject;
    const [commonName] = certificate.subjectName.getField('CN');
    const [organization] = certificate.subjectName.getField('O');
    this.signerNames = {
      signedBy: commonName ?? certificate.subject,
      ...(organization === undefined ? {} : { issuer: organization }),
    };
  }

  /** Signs the original and its marked copy; `null` for a format the library cannot sign yet. */
  async signOutput(
    output: { clean: Uint8Array; marked: Uint8Array },
    mimeType: string,
    model: string,
  ): Promise<SignedOutput | null> {
    if (!canCarryContentCredentials(mimeType)) return null;
    // One moment for both copies. Without a timestamp authority a manifest carries no time of its own;
    // with one (C2PA_TSA_URL), checkers show the authority's time, a second or so after this.
    const signedAt = new Date().toISOString();
    const softwareAgent = { name: CREATOR_TOOL, version: PRODUCT_VERSION };
    const originalId = `xmp:iid:${randomUUID()}`;
    const clean = await this.sign(output.clean, mimeType, originalId, () => [
      {
        action: ORIGINAL_ACTIONS[0],
        digitalSourceType: DigitalSourceType.TrainedAlgorithmicMedia,
        softwareAgent,
        description: `Generated by ${model}`,
        parameters: { model },
      },
    ]);
    const marked = await this.sign(output.marked, mimeType, `xmp:iid:${randomUUID()}`, (manifest) => {
      const original = IngredientAssertion.createV3(RelationshipType.ParentOf);
      original.title = 'Original output';
      original.format = mimeType;
      original.instanceID = originalId;
      manifest.addAssertion(original);
      return [
        {
          action: MARKED_ACTIONS[0],
          softwareAgent,
          parameters: { ingredients: [manifest.createAssertionReference(original)] },
        },
        { action: MARKED_ACTIONS[1], softwareAgent, description: `Visible ${CREATOR_TOOL} product mark` },
      ];
    });
    const summary: ContentCredentialsSummary = {
      ...this.signerNames,
      signedAt,
      generator: `${CREATOR_TOOL} ${PRODUCT_VERSION}`,
      model,
      digitalSourceType: 'trainedAlgorithmicMedia',
      actions: { original: [...ORIGINAL_ACTIONS], marked: [...MARKED_ACTIONS] },
    };
    return { clean, marked, summary };
  }

  private async sign(
    bytes: Uint8Array,
    mimeType: ContentCredentialsFormat,
    instanceID: string,
    actions: (manifest: ReturnType<ManifestStore['createManifest']>) => Action[],
  ): Promise<Uint8Array> {
    const asset = SIGNABLE_FORMATS[mimeType](bytes);
    const store = new ManifestStore();
    const manifest = store.createManifest({
      assetFormat: mimeType,
      instanceID,
      defaultHashAlgorithm: 'SHA-256',
      signer: this.signer,
    });
    manifest.claim!.claimGeneratorName = CREATOR_TOOL;
    manifest.claim!.claimGeneratorVersion = PRODUCT_VERSION;
    const binding = DataHashAssertion.create('SHA-256');
    manifest.addAssertion(binding);
    const actionAssertion = new ActionAssertion();
    actionAssertion.actions = actions(manifest);
    manifest.addAssertion(actionAssertion);
    await asset.ensureManifestSpace(store.measureSize());
    await binding.updateWithAsset(asset);
    await manifest.sign(this.signer, this.timestamps);
    await asset.writeManifestJUMBF(store.getBytes());
    return asset.getDataRange();
  }
}
