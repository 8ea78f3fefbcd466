// The WebAssembly JavaScript API that Node provides as a global. TypeScript declares it only in the
// DOM library, which the server code is checked without (tsconfig.json): the members src/ and test/ use.
declare namespace WebAssembly {
  interface Memory {
    readonly buffer: ArrayBuffer;
  }
  interface Instance {
    readonly exports: Record<string, unknown>;
  }
  interface WebAssemblyInstantiatedSource {
    instance: Instance;
  }
  function instantiate(bytes: ArrayBufferView | ArrayBuffer, importObject?: Record<string, Record<string, unknown>>): Promise<WebAssemblyInstantiatedSource>;
}
