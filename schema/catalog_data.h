// The operator catalog as plain data: one SchemaRow per operator version, generated from
// ONNX's catalog by schema/gen_catalog.py into schema/defs/catalog_data.cc.
#ifndef ONNX_INFER_SCHEMA_CATALOG_DATA_H_
#define ONNX_INFER_SCHEMA_CATALOG_DATA_H_

#include "onnx_infer/proto/onnx_proto.h"
#include "onnx_infer/schema/op_schema.h"

namespace onnx_infer::catalog {

struct ParamRow {
  const char* name;
  const char* type;
  ParamOption option;
  bool homogeneous;
  int min_arity;
};

struct AttrRow {
  const char* name;
  onnx::AttributeProto::AttributeType type;
  bool required;
  // The default value as text, or null: an int or float in decimal, a string as is, a list
  // with its items separated by commas.
  const char* default_text;
};

struct ConstraintRow {
  const char* param;
  const char* const* allowed;
  int num_allowed;
};

struct FunctionBodyRow {
  int opset;         // the opset version the body's nodes are written for
  const char* text;  // the function in ONNX text syntax
};

struct SchemaRow {
  const char* domain;  // "" for ai.onnx
  const char* name;
  int since_version;
  bool deprecated;
  int min_input, max_input, min_output, max_output;
  const ParamRow* inputs;
  int num_inputs;
  const ParamRow* outputs;
  int num_outputs;
  const AttrRow* attributes;
  int num_attributes;
  const ConstraintRow* constraints;
  int num_constraints;
  const FunctionBodyRow* bodies;
  int num_bodies;
  bool context_dependent_function;  // built per node by ONNX; not in the catalog
};

extern const SchemaRow kSchemaRows[];
extern const int kNumSchemaRows;

// The opset versions each domain of the catalog has.
struct DomainRow {
  const char* domain;  // "" for ai.onnx
  int min_version, max_version;
};

extern const DomainRow kDomainRows[];
extern const int kNumDomainRows;

}  // namespace onnx_infer::catalog

#endif  // ONNX_INFER_SCHEMA_CATALOG_DATA_H_
