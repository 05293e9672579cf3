// The `fft` namespace of the public API (the Array API's fft extension): a module
// re-exporting the transforms of fft.ts and the helpers of fft-helpers.ts.

/**
 * The `fft` namespace (the Array API's fft extension): `fft.fft`, `fft.rfft`, `fft.irfft`,
 * `fft.fftn`, `fft.fftfreq`, `fft.fftshift`, … Each transform makes its axes one chunk and
 * runs one task per block of the other axes. Until complex dtypes exist, complex values are
 * pairs (re, im) on a trailing axis of size 2: complex results have it, and complex inputs
 * (the default for ifft, irfft, hfft and their n-d forms; `complexInput: true` elsewhere) need it.
 * @example
 * const spectrum = fft.rfft(signal, { axis: 1 }); // [channels, n/2 + 1, 2]
 * const power = sum(multiply(spectrum, spectrum), { axis: -1 });
 * @module
 */

export { fftFn as fft, fftn, hfft, ifft, ifftn, ihfft, irfft, irfftn, rfft, rfftn } from './fft.ts';
export { fftfreq, fftshift, ifftshift, rfftfreq } from './fft-helpers.ts';
