#include "onnx_infer/schema/catalog.h"

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "onnx_infer/base/strings.h"
#include "onnx_infer/schema/catalog_data.h"

namespace onnx_infer {
namespace {

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    items.emplace_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

// Reads a catalog default (see AttrRow::default_text) into `a`, a new AttributeProto.
Status ParseDefault(const catalog::AttrRow& row, onnx::AttributeProto& a) {
  a.set_name(row.name);
  a.set_type(row.type);
  const char* text = row.default_text;
  switch (row.type) {
    case onnx::AttributeProto::INT:
      a.set_i(std::strtoll(text, nullptr, 10));
      return OkStatus();
    case onnx::AttributeProto::FLOAT:
      a.set_f(std::strtof(text, nullptr));
      return OkStatus();
    case onnx::AttributeProto::STRING:
      a.set_s(text);
      return OkStatus();
    case onnx::AttributeProto::INTS:
      for (const auto& item : SplitList(text)) a.add_ints(std::strtoll(item.c_str(), nullptr, 10));
      return OkStatus();
    case onnx::AttributeProto::FLOATS:
      for (const auto& item : SplitList(text)) a.add_floats(std::strtof(item.c_str(), nullptr));
      return OkStatus();
    case onnx::AttributeProto::STRINGS:
      for (const auto& item : SplitList(text)) a.add_strings(item);
      return OkStatus();
    default:
      return Status::Error(StrCat("attribute '", row.name, "': the catalog gives a default of a ",
                                  "type that cannot have one"));
  }
}

// The schema a catalog row describes (SchemaRegistry::MakeSchema: `data` is the row).
StatusOr<OpSchema> MakeFromRow(const void* data) {
  const catalog::SchemaRow& row = *static_cast<const catalog::SchemaRow*>(data);
  OpSchema schema(row.domain, row.name, row.since_version);
  schema.Reserve(row.num_inputs, row.num_outputs, row.num_attributes, row.num_constraints);
  for (int i = 0; i < row.num_inputs; ++i) {
    const auto& p = row.inputs[i];
    schema.Input(p.name, p.type, p.option, p.homogeneous, p.min_arity);
  }
  for (int i = 0; i < row.num_outputs; ++i) {
    const auto& p = row.outputs[i];
    schema.Output(p.name, p.type, p.option, p.homogeneous, p.min_arity);
  }
  for (int i = 0; i < row.num_attributes; ++i) {
    const auto& a = row.attributes[i];
    if (a.default_text) {
      onnx::AttributeProto value;
      OI_RETURN_IF_ERROR(ParseDefault(a, value));
      schema.AttrDefault(std::move(value));
    } else {
      schema.Attr(a.name, a.type, a.required);
    }
  }
  for (int i = 0; i < row.num_constraints; ++i) {
    const auto& c = row.constraints[i];
    schema.TypeConstraint(c.param, std::vector<std::string>(c.allowed, c.allowed + c.num_allowed));
  }
  for (int i = 0; i < row.num_bodies; ++i) schema.Function(row.bodies[i].opset, row.bodies[i].text);
  schema.ContextDependentFunction(row.context_dependent_function);
  schema.Arity(row.min_input, row.max_input, row.min_output, row.max_output);
  schema.Deprecated(row.deprecated);
  return schema;
}

// Each row's schema, deferred: made on first use (SchemaRegistry::Defer).
Status AddRows(SchemaRegistry& registry, const catalog::SchemaRow* rows, int num_rows) {
  for (int r = 0; r < num_rows; ++r) {
    OI_RETURN_IF_ERROR(
        registry.Defer(rows[r].domain, rows[r].name, rows[r].since_version, MakeFromRow, &rows[r]));
  }
  return OkStatus();
}

void SetRanges(SchemaRegistry& registry, const catalog::DomainRow* rows, int num_rows) {
  for (int r = 0; r < num_rows; ++r) {
    registry.SetOpsetRange(rows[r].domain, rows[r].min_version, rows[r].max_version);
  }
}

}  // namespace

Status AddCatalogSchemas(SchemaRegistry& registry) {
  OI_RETURN_IF_ERROR(AddRows(registry, catalog::kSchemaRows, catalog::kNumSchemaRows));
  // onnxruntime's operators: com.microsoft, and the ones it registers in the default domain
  // below ONNX's own versions (LayerNormalization-1 beside ONNX's LayerNormalization-17, ...).
  OI_RETURN_IF_ERROR(
      AddRows(registry, catalog::kContribSchemaRows, catalog::kNumContribSchemaRows));
  SetRanges(registry, catalog::kDomainRows, catalog::kNumDomainRows);
  SetRanges(registry, catalog::kContribDomainRows, catalog::kNumContribDomainRows);
  return OkStatus();
}

}  // namespace onnx_infer
