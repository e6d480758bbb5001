/* gcc-includes.h - the GCC internal headers the plugin needs, in the order
   GCC's own sources include them.  Kept in one place so the .cc files stay
   readable.  */
#ifndef ZEROINST_GCC_INCLUDES_H
#define ZEROINST_GCC_INCLUDES_H

#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "target.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "cgraph.h"
#include "context.h"
#include "diagnostic-core.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "stringpool.h"
#include "attribs.h"
#include "varasm.h"
#include "gimple-iterator.h"
#include "gimple-fold.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "tree-ssa.h"
#include "tree-dfa.h"
#include "tree-into-ssa.h"
#include "tree-ssa-address.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "asan.h"
#include "langhooks.h"
#include "real.h"
#include "builtins.h"
#include "internal-fn.h"
#include "tree-pretty-print.h"

#endif
