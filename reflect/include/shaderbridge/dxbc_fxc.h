/* SPDX-License-Identifier: MIT */
/* FXC-era DirectX Container parts. PLACEHOLDER: filled in by the FXC-parts work. */
#ifndef SHADERBRIDGE_DXBC_FXC_H
#define SHADERBRIDGE_DXBC_FXC_H
#include "shaderbridge/dxbc.h"
#endif
