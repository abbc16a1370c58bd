// The KStream/KTable DSL: streams_builder, kstream, ktable, groupings and their options.
#pragma once

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/dsl/ktable_fk_join.hpp>
#include <kstreams/dsl/ktable_transform_values.hpp>
#include <kstreams/dsl/unlimited_windows.hpp>
