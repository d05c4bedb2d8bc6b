// SPDX-License-Identifier: MIT
#include "t_judge.h"
#include "t_util.h"
int main(void)
{
	return t_done("judge-mbwi");
}
