// The driver: the inferred types written back into the model: value_info entries (streamed or
// as messages), graph outputs, the statistics (inference/driver.h).
#include "onnx_infer/inference/driver.h"

namespace onnx_infer::driver_internal {

void Driver::CollectGraphOutputs(GraphRun& run, const Scope& scope) {
  const onnx::GraphProto& graph = *run.graph;
  run.output_types.clear();
  run.output_values.clear();
  for (int i = 0; i < graph.output_size(); ++i) {
    const onnx::ValueInfoProto& vi = graph.output(i);
    const Value* v = scope.Find(run.output_ids[i], vi.name());
    Type type = v ? v->type : Type();
    auto merged = MergeTypes(TypeFromProto(vi.type()), type);
    // A contradiction (reported where the value was inferred) keeps the declaration only
    // under the refine policy.
    const bool keep = options_.declared_policy == DeclaredPolicy::kRefine || type.is_unknown();
    run.output_types.push_back(merged.ok() ? *merged : keep ? TypeFromProto(vi.type()) : type);
    const ConstValue* data = v ? ValueData(*v, options_.max_value_elements) : nullptr;
    run.output_values.push_back(data ? std::optional<ConstValue>(*data) : std::nullopt);
  }
}

void Driver::WriteBack(GraphRun& run, Scope& scope, bool count_stats) {
  onnx::GraphProto& graph = *run.graph;
  const int num_nodes = graph.node_size();
  // Per value id: where its type goes. The value_info entry of that name (the last one, when
  // a name has several), to be added when there is none, or none for a graph output (written
  // in place from run.output_types).
  constexpr int32_t kAdd = -1, kGraphOutput = -2;
  std::vector<int32_t> info(scope.size(), kAdd);
  for (int i = 0; i < graph.value_info_size(); ++i) {
    if (run.value_info_ids[i] >= 0) info[run.value_info_ids[i]] = i;
  }
  for (int id : run.output_ids) {
    if (id >= 0) info[id] = kGraphOutput;
  }
  for (int i = 0; i < graph.output_size(); ++i) {
    const Type& t = run.output_types[i];
    if (!t.is_unknown()) {
      WriteTypeToProto(t, graph.mutable_output(i)->mutable_type(), &dim_texts_);
    }
  }
  // New entries as bytes (GraphRun::stream_new_value_info), made in `scratch`, when each
  // value is written at most once (below): a name several nodes define gets one entry, where
  // its first write would add it, with its last write's type, which bytes cannot be.
  bool stream = run.stream_new_value_info && CanAppendValueInfo(graph);
  ValueInfoScratch scratch(&result_.new_value_info);
  // The type of the value written last and what follows from it: consecutive values often
  // have one type (a chain of elementwise nodes shares one shape), which is then classified,
  // and its bytes looked up, once.
  struct LastType {
    Type type;
    bool valid = false;
    ValueStatsClass stats = ValueStatsClass::kUnknown;
    bool skip = true;                    // nothing to write
    bool has_bytes = false;              // `bytes` is looked up
    const std::string* bytes = nullptr;  // ValueInfoScratch::TensorTypeBytes
  } last;
  // Counts the type of the node output `name` (value `id`) and writes it into the graph.
  auto write = [&](const std::string& name, int id, const Type& type) {
    if (!last.valid || !type.SharesWith(last.type)) {
      if (last.valid && type == last.type) {
        // The same type in a shape of its own: kept, so that the values sharing that shape
        // (an elementwise node's output after its input) are known equal without their dims.
        last.type.ShareShape(type);
      } else {
        last.type = type;
        last.valid = true;
        last.stats = ClassifyValueStats(type);
        last.skip =
            type.is_unknown() || (type.is_tensor() && type.elem_type() == 0 && !type.has_shape());
        last.has_bytes = false;
      }
    }
    if (count_stats) AddValueStats(last.stats, 1, result_.stats);
    if (last.skip) return;
    int32_t& where = info[id];
    if (where == kGraphOutput) return;
    if (where == kAdd && stream) {
      if (!last.has_bytes) {
        last.bytes = scratch.TensorTypeBytes(type, &dim_texts_);
        last.has_bytes = true;
      }
      AppendValueInfo(name, type, last.bytes, scratch);
      return;
    }
    if (where == kAdd) {
      where = graph.value_info_size();
      graph.add_value_info()->set_name(name);
    }
    WriteTypeToProto(type, graph.mutable_value_info(where)->mutable_type(), &dim_texts_);
  };
  if (!run.release_written) {
    const NodeValueIds& node_ids = run.node_ids;
    for (int index = 0; index < num_nodes; ++index) {
      // The outputs' ids end where the next node's begin.
      const Names outputs = OutputNames(graph.node(index));
      const int* ids = node_ids.ids.data() +
                       (index + 1 < num_nodes ? node_ids.offsets[index + 1] : node_ids.ids.size()) -
                       outputs.size();
      for (size_t o = 0; o < outputs.size(); ++o) {
        const Value* inferred = scope.FindHere(ids[o]);
        if (inferred && inferred->from_node()) write(*outputs[o], ids[o], inferred->type);
      }
    }
    return;
  }
  // Nothing reads the scope after this (GraphRun::release_written): the node outputs' types
  // are moved out of it in write order, in blocks, and the scope and the per-node ids are freed
  // before the first value_info is made; each block is freed once written. (A name several
  // nodes define is written, and counted, once per node, as above: its type is copied but for
  // the last.)
  struct Pending {
    int32_t node, output, id;
    Type type;
  };
  constexpr size_t kBlock = size_t{1} << 14;
  std::vector<std::vector<Pending>> blocks;
  {
    // Per block of the scope's values, the node outputs in it (the stream's walk below), and
    // whether each value is written once: found by FindProducers.
    std::vector<uint32_t> outputs_in_block = std::move(run.outputs_in_block);
    if (!run.outputs_written_once) stream = false;
    if (stream) {
      // Each value written once: straight from the scope, its type freed once written, so
      // that the bytes (far smaller than the messages) reuse its memory; no write list. The
      // name table is freed first (what follows finds values by id), and so are the per-node
      // offsets of the ids (walked in order). Each block of values goes once the walk has
      // passed every node output in it (the inputs' and initializers' at once), so that the
      // bytes are not made on top of the values: on the 700k tiny-nodes chain the values were
      // 22 MB, the bytes 15.
      scope.ReleaseNames();
      std::vector<uint32_t>().swap(run.node_ids.offsets);
      for (int block = 0; block < scope.num_blocks(); ++block) {
        if (outputs_in_block[block] == 0) scope.ReleaseBlock(block);
      }
      const int* ids = run.node_ids.ids.data();
      for (int index = 0; index < num_nodes; ++index) {
        const onnx::NodeProto& node = graph.node(index);
        ids += node.input_size();
        const Names outputs = OutputNames(node);
        for (size_t o = 0; o < outputs.size(); ++o) {
          if (ids[o] < 0) continue;
          if (scope.FindHere(ids[o]) && scope.at(ids[o]).from_node()) {
            Type& type = scope.at(ids[o]).type;
            write(*outputs[o], ids[o], type);
            type = Type();
          }
          const int block = Scope::BlockOf(ids[o]);
          if (--outputs_in_block[block] == 0) scope.ReleaseBlock(block);
        }
        ids += outputs.size();
      }
      scope.Release();
      run.node_ids = {};
      return;
    }
    std::vector<uint32_t>().swap(outputs_in_block);
    // How many times each value is still to be written: its type is moved out at the last.
    std::vector<uint32_t> writes_left(scope.size(), 0);
    for (int index = 0; index < num_nodes; ++index) {
      const int* ids = run.node_ids.outputs(index, graph.node(index));
      const int num_outputs = graph.node(index).output_size();
      for (int o = 0; o < num_outputs; ++o) {
        if (ids[o] >= 0) ++writes_left[ids[o]];
      }
    }
    for (int index = 0; index < num_nodes; ++index) {
      const int* ids = run.node_ids.outputs(index, graph.node(index));
      const int num_outputs = graph.node(index).output_size();
      for (int o = 0; o < num_outputs; ++o) {
        if (ids[o] < 0) continue;
        const bool last = --writes_left[ids[o]] == 0;
        if (!scope.FindHere(ids[o]) || !scope.at(ids[o]).from_node()) continue;
        if (blocks.empty() || blocks.back().size() == kBlock) {
          blocks.emplace_back().reserve(kBlock);
        }
        Type& type = scope.at(ids[o]).type;
        if (last) {
          blocks.back().push_back({index, o, ids[o], std::move(type)});
        } else {
          blocks.back().push_back({index, o, ids[o], type});
        }
      }
    }
  }
  scope.Release();
  run.node_ids = {};
  for (auto& block : blocks) {
    for (const Pending& p : block) write(graph.node(p.node).output(p.output), p.id, p.type);
    std::vector<Pending>().swap(block);
  }
}

// Chunks of 64 KiB: taken from the heap rather than mapped (malloc maps blocks from 128 KiB),
// and few enough that their list costs nothing.
void ValueInfoScratch::NewChunk(size_t size) {
  constexpr size_t kChunk = size_t{1} << 16;
  CutChunk();
  std::string& chunk = chunks_->emplace_back();
  chunk.reserve(std::max(kChunk, size));
  chunk.resize(chunk.capacity());
  next_ = reinterpret_cast<uint8_t*>(chunk.data());
  end_ = next_ + chunk.size();
}

void Driver::AppendValueInfo(const std::string& name, const Type& type,
                             const std::string* tensor_bytes, ValueInfoScratch& scratch_message) {
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedOutputStream;
  // Framed as GraphProto frames a value_info element: tag, length, bytes.
  constexpr uint32_t kEntryTag = WireFormatLite::MakeTag(onnx::GraphProto::kValueInfoFieldNumber,
                                                         WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  auto frame_size = [](size_t size) {
    return CodedOutputStream::VarintSize32(kEntryTag) + CodedOutputStream::VarintSize64(size) +
           size;
  };
  auto frame = [](size_t size, uint8_t* p) {
    p = CodedOutputStream::WriteVarint32ToArray(kEntryTag, p);
    return CodedOutputStream::WriteVarint64ToArray(size, p);
  };
  if (tensor_bytes) {
    // The bytes of a ValueInfoProto holding only the name, made here rather than by a
    // message (proto2: a set string field is written even when empty): field 1's tag, the
    // length, the name; then field 2's tag, the length, the type's bytes.
    constexpr uint32_t kNameTag = WireFormatLite::MakeTag(
        onnx::ValueInfoProto::kNameFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
    constexpr uint32_t kTypeTag = WireFormatLite::MakeTag(
        onnx::ValueInfoProto::kTypeFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
    static_assert(kNameTag < 0x80 && kTypeTag < 0x80 && kEntryTag < 0x80, "one byte each");
    const size_t name_size = name.size(), type_size = tensor_bytes->size();
    if (name_size + type_size < 0x80 - 4) {
      // Most entries: every length fits one byte (name and type, and the entry's 4 more).
      uint8_t* p = scratch_message.Room(name_size + type_size + 6);
      p[0] = static_cast<uint8_t>(kEntryTag);
      p[1] = static_cast<uint8_t>(name_size + type_size + 4);
      p[2] = static_cast<uint8_t>(kNameTag);
      p[3] = static_cast<uint8_t>(name_size);
      std::memcpy(p + 4, name.data(), name_size);
      p += 4 + name_size;
      p[0] = static_cast<uint8_t>(kTypeTag);
      p[1] = static_cast<uint8_t>(type_size);
      std::memcpy(p + 2, tensor_bytes->data(), type_size);
      scratch_message.Commit(p + 2 + type_size);
      return;
    }
    const size_t size = 1 + CodedOutputStream::VarintSize64(name.size()) + name.size() + 1 +
                        CodedOutputStream::VarintSize64(tensor_bytes->size()) +
                        tensor_bytes->size();
    uint8_t* p = frame(size, scratch_message.Room(frame_size(size)));
    *p++ = static_cast<uint8_t>(kNameTag);
    p = CodedOutputStream::WriteVarint64ToArray(name.size(), p);
    std::memcpy(p, name.data(), name.size());
    p += name.size();
    *p++ = static_cast<uint8_t>(kTypeTag);
    p = CodedOutputStream::WriteVarint64ToArray(tensor_bytes->size(), p);
    std::memcpy(p, tensor_bytes->data(), tensor_bytes->size());
    scratch_message.Commit(p + tensor_bytes->size());
    return;
  }
  // The scratch message is reused: clearing the tensor type keeps its sub-messages (its
  // shape's dims), and what is made anew (a dim_param's string) is carved from the scratch's
  // arena. Its bytes are those of a fresh message filled alike.
  onnx::ValueInfoProto& scratch = scratch_message.Whole();
  onnx::TypeProto* proto = scratch.mutable_type();
  if (type.is_tensor() && proto->has_tensor_type()) {
    // A tensor after a tensor: only what WriteTypeToProto leaves as it is is cleared; a shape
    // of the same rank is overwritten dim by dim (WriteShape), each dim ending with exactly
    // what the type says, so a dim_param's string is reused rather than made anew.
    proto->clear_denotation();
    onnx::TypeProto_Tensor* tensor = proto->mutable_tensor_type();
    tensor->clear_elem_type();
    if (!type.has_shape()) tensor->clear_shape();
  } else {
    proto->Clear();
  }
  scratch.set_name(name);
  WriteTypeToProto(type, proto, &dim_texts_);
  const size_t size = scratch.ByteSizeLong();
  uint8_t* p = frame(size, scratch_message.Room(frame_size(size)));
  scratch_message.Commit(scratch.SerializeWithCachedSizesToArray(p));
}

}  // namespace onnx_infer::driver_internal
