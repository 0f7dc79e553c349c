// The runtime half of the verifier (verify.py): runs models with onnxruntime-node and reports
// the element type and dims of every output. One JSON request a line on stdin, one JSON answer
// a line on stdout, in order, so one process serves a whole corpus:
//   {"id": 3, "model": "/tmp/m.onnx", "threads": 1,
//    "feeds": {"x": {"type": "float32", "dims": [2, 3], "fill": "ones"},
//              "ids": {"type": "int64", "dims": [4], "b64": "<little-endian raw data>"},
//              "s": {"type": "string", "dims": [1], "strings": ["a"]}}}
//   -> {"id": 3, "ok": true, "outputs": {"y": {"type": "float32", "dims": [2, 3]}}}
//   -> {"id": 3, "ok": false, "stage": "load" | "feed" | "run", "error": "..."}
// "fill" is "ones" or "zeros". A value onnxruntime-node cannot hand back (a sequence, a map) is
// reported as {"type": "unsupported"} when the run itself succeeds.
'use strict';
const readline = require('readline');
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array, float16: Uint16Array,
};

function makeTensor(f) {
  const count = f.dims.reduce((a, b) => a * b, 1);
  if (f.type === 'string') {
    const strings = f.strings || new Array(count).fill(f.fill === 'ones' ? '1' : '');
    return new ort.Tensor('string', strings, f.dims);
  }
  const Array_ = ARRAYS[f.type];
  if (!Array_) throw new Error(`element type ${f.type} cannot be fed from node`);
  let data;
  if (f.b64 !== undefined) {
    const buf = Buffer.from(f.b64, 'base64');
    const copy = new Uint8Array(buf.length);  // aligned for the typed array
    copy.set(buf);
    data = new Array_(copy.buffer, 0, buf.length / Array_.BYTES_PER_ELEMENT);
  } else {
    data = new Array_(count);
    if (f.fill === 'ones') {
      const one = f.type === 'float16' ? 0x3c00 : (f.type.includes('int64') ? 1n : 1);
      data.fill(one);
    }
  }
  if (f.type === 'bool') return new ort.Tensor('bool', data, f.dims);
  return new ort.Tensor(f.type, data, f.dims);
}

const sessions = new Map();  // model path -> session (a model is run at several bindings)

async function handle(req) {
  let session = sessions.get(req.model);
  if (!session) {
    try {
      session = await ort.InferenceSession.create(req.model, {
        intraOpNumThreads: req.threads || 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'disabled',
      });
    } catch (e) {
      return {ok: false, stage: 'load', error: String(e.message || e)};
    }
    sessions.clear();  // one model at a time: its bindings come one after another
    sessions.set(req.model, session);
  }
  const feeds = {};
  try {
    for (const [name, f] of Object.entries(req.feeds)) feeds[name] = makeTensor(f);
  } catch (e) {
    return {ok: false, stage: 'feed', error: String(e.message || e)};
  }
  let results;
  try {
    results = await session.run(feeds);
  } catch (e) {
    return {ok: false, stage: 'run', error: String(e.message || e)};
  }
  const outputs = {};
  for (const name of session.outputNames) {
    const t = results[name];
    if (t && t.dims !== undefined && t.type !== undefined) {
      outputs[name] = {type: t.type, dims: Array.from(t.dims, Number)};
    } else {
      outputs[name] = {type: 'unsupported'};
    }
  }
  return {ok: true, outputs};
}

const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
let chain = Promise.resolve();
rl.on('line', (line) => {
  chain = chain.then(async () => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stdout.write(JSON.stringify({ok: false, stage: 'request', error: String(e)}) + '\n');
      return;
    }
    let answer;
    try {
      answer = await handle(req);
    } catch (e) {
      answer = {ok: false, stage: 'run', error: String((e && e.message) || e)};
    }
    answer.id = req.id;
    process.stdout.write(JSON.stringify(answer) + '\n');
  });
});
rl.on('close', () => { chain.then(() => process.exit(0)); });
