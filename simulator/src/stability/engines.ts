/**
 * The v1 text-to-image engines Stability still serves and the sizes each renders
 * (https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6): SDXL 1.0 only nine
 * width×height pairs, SD 1.6 any multiple of 64 from 320 to 1536 per side. Other engine ids answer 404.
 */
export const SDXL_ENGINE = 'stable-diffusion-xl-1024-v1-0';
export const SD16_ENGINE = 'stable-diffusion-v1-6';
export const ENGINES: readonly string[] = [SDXL_ENGINE, SD16_ENGINE];

const SDXL_SIZES = [
  '1024x1024',
  '1152x896',
  '1216x832',
  '1344x768',
  '1536x640',
  '640x1536',
  '768x1344',
  '832x1216',
  '896x1152',
];
const SD16_RANGE = { min: 320, max: 1536 };

/** Stability's 400 for a size the engine cannot render, or undefined when it can. */
export function sizeProblem(
  engine: string,
  width: number,
  height: number,
): { name: string; message: string } | undefined {
  if (engine === SDXL_ENGINE) {
    if (SDXL_SIZES.includes(`${width}x${height}`)) return undefined;
    return {
      name: 'invalid_sdxl_v1_dimensions',
      message: `For the ${SDXL_ENGINE} engine, the dimensions must be one of ${SDXL_SIZES.join(', ')}; got ${width}x${height}`,
    };
  }
  const fits = (side: number) => side >= SD16_RANGE.min && side <= SD16_RANGE.max;
  if (fits(width) && fits(height)) return undefined;
  return {
    name: 'invalid_height_or_width',
    message: `For the ${SD16_ENGINE} engine, height and width must be between ${SD16_RANGE.min} and ${SD16_RANGE.max}; got ${width}x${height}`,
  };
}
