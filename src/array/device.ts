// Where an array's blocks live. CPU is the default; GPU arrives with the WebGPU backend.

export type Device = 'cpu' | 'gpu';
