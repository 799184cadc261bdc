/* SPDX-License-Identifier: MIT */
/* DXC-era DirectX Container parts. PLACEHOLDER: filled in by the DXIL-parts work. */
#ifndef SHADERBRIDGE_DXBC_DXIL_H
#define SHADERBRIDGE_DXBC_DXIL_H
#include "shaderbridge/dxbc.h"
#endif
