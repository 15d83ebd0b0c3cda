// minifloat: 8-bit floating-point types for machine learning. The umbrella header.
#ifndef MINIFLOAT_MINIFLOAT_HPP
#define MINIFLOAT_MINIFLOAT_HPP

#include "config.hpp"
#include "format.hpp"
#include "binary16.hpp"
#include "converter.hpp"
#include "tables.hpp"
#include "fp8.hpp"
#include "convert.hpp"
#include "limits.hpp"
#include "order.hpp"
#include "iostream.hpp"
#include "random.hpp"
#include "error.hpp"
#include "report.hpp"
#include "bulk.hpp"
#include "scaling.hpp"
#include "text.hpp"
#include "literals.hpp"
#include "packed.hpp"
#include "microscaling.hpp"

#endif // MINIFLOAT_MINIFLOAT_HPP
