// The `fft` namespace of the public API (the Array API's fft extension): a module
// re-exporting the transforms of fft.ts and the helpers of fft-helpers.ts.

/**
 * The `fft` namespace (the Array API's fft extension): `fft.fft`, `fft.rfft`, `fft.irfft`,
 * `fft.fftn`, `fft.fftfreq`, `fft.fftshift`, … Each transform makes its axes one chunk and
 * runs one task per block of the other axes. Complex results are complex64 (from float32 or
 * complex64 input) or complex128 arrays; ifft, irfft, hfft and their n-d forms take complex
 * arrays (real arrays of (re, im) pairs on a last axis of size 2 with `complexInput: true`).
 * @example
 * const spectrum = fft.rfft(signal, { axis: 1 }); // [channels, n/2 + 1], complex128
 * const power = square(abs(spectrum));
 * @module
 */

export { fftFn as fft, fftn, hfft, ifft, ifftn, ihfft, irfft, irfftn, rfft, rfftn } from './fft.ts';
export { fftfreq, fftshift, ifftshift, rfftfreq } from './fft-helpers.ts';
