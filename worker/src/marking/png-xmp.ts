import { crc32 } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The end of the IHDR chunk: signature, length, type, 13 bytes of data, CRC. */
const AFTER_IHDR = 8 + 4 + 4 + 13 + 4;

/**
 * The PNG with its XMP packet where the XMP specification (part 3) puts it: an uncompressed `iTXt` chunk
 * keyed `XML:com.adobe.xmp`, right after the header. sharp's `withXmp` writes a compressed `zTXt` chunk
 * that XMP readers (exifr among them) do not look in. The image data is left byte for byte as it was.
 */
export function withXmpChunk(png: Uint8Array, xmp: string): Buffer {
  const source = Buffer.from(png);
  if (!source.subarray(0, 8).equals(PNG_SIGNATURE) || source.toString('ascii', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG');
  }
  // keyword \0, compression flag 0 and method 0, empty language tag \0, empty translated keyword \0, text.
  const data = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(xmp, 'utf8')]);
  const typeAndData = Buffer.concat([Buffer.from('iTXt', 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([source.subarray(0, AFTER_IHDR), length, typeAndData, crc, source.subarray(AFTER_IHDR)]);
}
